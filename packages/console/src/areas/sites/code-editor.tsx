import { useEffect, useId, useRef } from 'react';
import { Box, Text } from '@mantine/core';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { liquid } from '@codemirror/lang-liquid';
import { bracketMatching, defaultHighlightStyle, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import type { CodeLanguage } from './design-kinds';

/** Where the server found a template wrong: 1-based line and column, and its message. */
export interface CodeProblem { line: number; column: number | null; message: string }

/**
 * CodeMirror's own colours, darkened where they miss WCAG AA's 4.5:1 on the editor's white background
 * (the editor stays light in the dark scheme, so that every colour is checked against one background).
 */
const DARKER: Record<string, string> = { '#e40': '#b02a00', '#f00': '#c00', '#085': '#06704a', '#404740': '#3a3f3a' };
const highlight = HighlightStyle.define(defaultHighlightStyle.specs.map((spec) => ({ ...spec, color: DARKER[spec.color as string] ?? spec.color })));
const theme = EditorView.theme({
  '&': { backgroundColor: '#fff', color: '#1a1a1a', border: '1px solid #767676', borderRadius: '4px', minHeight: '16rem' },
  '&.cm-focused': { outline: '2px solid #1c7ed6', outlineOffset: '1px' },
  '.cm-gutters': { backgroundColor: '#f1f3f5', color: '#495057', borderRight: '1px solid #ced4da' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', minHeight: '16rem' },
  '.cm-activeLine': { backgroundColor: '#f1f5fb' },
}, { dark: false });

const languages: Record<CodeLanguage, () => Extension> = {
  liquid: () => liquid({ base: html() }),
  css: () => css(),
  javascript: () => javascript(),
};

/** The diagnostic of a problem: from the column on its line to the line's end (one character at least). */
function diagnosticsOf(state: EditorState, problem: CodeProblem | null): Diagnostic[] {
  if (!problem) return [];
  const line = state.doc.line(Math.min(Math.max(problem.line, 1), state.doc.lines));
  const from = Math.min(line.from + Math.max((problem.column ?? 1) - 1, 0), line.to);
  const to = Math.max(line.to, Math.min(from + 1, state.doc.length));
  return [{ from, to: Math.max(to, from), severity: 'error', message: problem.message }];
}

interface CodeEditorProps {
  label: string;
  language: CodeLanguage;
  value: string;
  onChange(value: string): void;
  readOnly?: boolean;
  /** The server's last refusal, shown as a lint diagnostic at its line. */
  problem?: CodeProblem | null;
}

/** A CodeMirror 6 editor for Liquid (with HTML), CSS or JavaScript, labelled by a visible label, with line numbers. */
export function CodeEditor({ label, language, value, onChange, readOnly = false, problem = null }: CodeEditorProps) {
  const labelId = useId();
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const editable = useRef(new Compartment());
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const created = new EditorView({
      parent: parent.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(), history(), drawSelection(), indentOnInput(), bracketMatching(), highlightActiveLine(),
          syntaxHighlighting(highlight), languages[language](), theme,
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          editable.current.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
          EditorView.contentAttributes.of({ 'aria-labelledby': labelId, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((update) => { if (update.docChanged) changed.current(update.state.doc.toString()); }),
        ],
      }),
    });
    view.current = created;
    return () => { created.destroy(); view.current = null; };
  // The editor is made once per language; value, readOnly and problem reach it through the effects below.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, labelId]);

  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]) });
  }, [readOnly]);

  useEffect(() => {
    const current = view.current;
    if (!current) return;
    current.dispatch(setDiagnostics(current.state, diagnosticsOf(current.state, problem)));
    if (problem) {
      const [diagnostic] = diagnosticsOf(current.state, problem);
      if (diagnostic) current.dispatch({ selection: { anchor: diagnostic.from }, scrollIntoView: true });
    }
  }, [problem]);

  return (
    <Box>
      <Text id={labelId} component="div" size="sm" fw={500} mb={4}>{label}</Text>
      <div ref={parent} data-code-editor={language} />
    </Box>
  );
}

/** `line 3, column 7` in a 422's detail (`source: is not valid Liquid: line 3, column 7: ...`), else null. */
export function problemOf(detail: string): CodeProblem | null {
  const found = /line (\d+)(?:, column (\d+))?/.exec(detail);
  if (!found) return null;
  return { line: Number(found[1]), column: found[2] ? Number(found[2]) : null, message: detail };
}
