declare module 'mjml' {
  interface MjmlError { line: number; message: string; tagName: string; formattedMessage: string }
  interface MjmlResult { html: string; errors: MjmlError[] }
  interface MjmlOptions { validationLevel?: 'strict' | 'soft' | 'skip'; minify?: boolean; keepComments?: boolean; ignoreIncludes?: boolean }
  /** mjml 5: the compilation is asynchronous. */
  export default function mjml(source: string, options?: MjmlOptions): Promise<MjmlResult>;
}
