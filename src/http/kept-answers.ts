/**
 * Answers built from values a cache keeps (`TtlCache`): made once per kept value and frozen, so that the route's
 * serializer (`http/schema-compilers.ts`) writes the answer's JSON once and sends the same text while the cache keeps
 * the value. The answer is made anew when any other argument differs (by `===`) from the one it was made with: pass
 * kept objects and plain values, never an object made per request. A kept value is never changed in place: that is
 * what keeps the text true.
 */
export function keptAnswers<Kept extends object, Args extends unknown[], Answer extends object>(
  build: (kept: Kept, ...args: Args) => Answer,
): (kept: Kept, ...args: Args) => Answer {
  const made = new WeakMap<Kept, { args: Args; answer: Answer }>();
  return (kept, ...args) => {
    const found = made.get(kept);
    if (found && found.args.every((arg, i) => arg === args[i])) return found.answer;
    const answer = Object.freeze(build(kept, ...args));
    made.set(kept, { args, answer });
    return answer;
  };
}
