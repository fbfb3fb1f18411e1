import { useMemo, useState } from 'react';
import { findPath, type RuleGroupType, type ValidationMap } from 'react-querybuilder';
import type { Translate } from '../../i18n/i18n';
import { pathOfField, rulesOf, type Rule, type RuleGroup } from './segment-query';
import { lacksValue } from './segment-values';

const sameValue = (a: Rule, b: Rule) => JSON.stringify(a.value) === JSON.stringify(b.value);

export interface BuilderErrors {
  /** The errors to draw, by condition id: only on conditions whose value was edited, or on every one after a save. */
  validation: ValidationMap;
  /** Whether an error is drawn now. */
  shown: boolean;
  /** Takes the builder's next query, noting the conditions whose value it edited (choosing an attribute or operator is not blamed). */
  change(next: RuleGroupType): void;
  /** Shows the errors of every condition (a save was asked for). */
  reveal(): void;
}

/**
 * The builder's errors: a condition without a value and the conditions a 422 names (`filters.all[1].value`). A new
 * condition starts empty without a word of blame; its errors appear once its value is edited, or when the segment is saved.
 */
export function useBuilderErrors(query: RuleGroupType, setQuery: (next: RuleGroupType) => void, refusedFields: string[], t: Translate): BuilderErrors {
  const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set());
  const [revealed, setRevealed] = useState(false);
  const change = (next: RuleGroupType) => {
    const before = new Map(rulesOf(query as RuleGroup).map((rule) => [rule.id, rule]));
    const changed = rulesOf(next as RuleGroup).filter((rule) => { const old = before.get(rule.id); return old && !sameValue(old, rule); });
    if (changed.length) setEdited((previous) => new Set([...previous, ...changed.map((rule) => rule.id!)]));
    setQuery(next);
  };
  const validation = useMemo(() => {
    const map: ValidationMap = {};
    const refused = new Set(refusedFields.map((field) => { const path = pathOfField(field); return path ? findPath(path, query)?.id : undefined; }));
    for (const rule of rulesOf(query as RuleGroup)) {
      if (!revealed && !edited.has(rule.id!)) continue;
      if (lacksValue(rule.operator, rule.value)) map[rule.id!] = { valid: false, reasons: [t('engagement.valueRequired')] };
      else if (refused.has(rule.id)) map[rule.id!] = { valid: false, reasons: [t('engagement.valueInvalid')] };
    }
    return map;
  }, [query, refusedFields, edited, revealed, t]);
  return { validation, shown: Object.keys(validation).length > 0, change, reveal: () => setRevealed(true) };
}
