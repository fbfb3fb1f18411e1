/**
 * Answers built from a value a cache keeps (`TtlCache.getOrLoad`): made once per kept value and frozen, so that the
 * route's serializer (`http/schema-compilers.ts`) writes the answer's JSON once and sends the same text while the
 * cache keeps the value. What `build` reads besides the kept value must be the same for every request that finds it
 * (what its cache key holds), and a kept value is never changed in place: that is what keeps the text true.
 */
export function keptAnswers<Kept extends object, Args extends unknown[], Answer extends object>(
  build: (kept: Kept, ...args: Args) => Answer,
): (kept: Kept, ...args: Args) => Answer {
  const answers = new WeakMap<Kept, Answer>();
  return (kept, ...args) => {
    let answer = answers.get(kept);
    if (!answer) answers.set(kept, answer = Object.freeze(build(kept, ...args)));
    return answer;
  };
}
