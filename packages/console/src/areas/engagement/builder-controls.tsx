import { ActionIcon, Button, Checkbox, Group, NativeSelect, TextInput } from '@mantine/core';
import type { ActionProps, ShiftActionsProps, ValueEditorProps, ValueSelectorProps } from 'react-querybuilder';
import { valuelessOperators } from './segment-query';

/** The builder's controls, drawn with Mantine and each labelled by the title the builder passes (translated). */
function Selector(props: ValueSelectorProps) {
  return (
    <NativeSelect
      aria-label={props.title}
      size="xs"
      value={props.value ?? ''}
      disabled={props.disabled}
      onChange={(event) => props.handleOnChange(event.currentTarget.value)}
      data={(props.options as { name: string; label: string; options?: { name: string; label: string }[] }[]).flatMap((option) => option.options ?? [option]).map((option) => ({ value: option.name, label: option.label }))}
    />
  );
}

function ValueEditor(props: ValueEditorProps) {
  if (valuelessOperators.has(props.operator)) return null;
  if (props.type === 'checkbox') {
    return <Checkbox aria-label={props.title} label={props.title} checked={props.value === true} onChange={(event) => props.handleOnChange(event.currentTarget.checked)} />;
  }
  const inputType = props.operator === 'within_last_days' ? 'number' : (props.inputType ?? 'text');
  return (
    <TextInput
      aria-label={props.title}
      size="xs"
      type={inputType}
      value={props.value === undefined || props.value === null ? '' : String(props.value)}
      error={props.validation === false || (typeof props.validation === 'object' && props.validation?.valid === false) ? true : undefined}
      onChange={(event) => props.handleOnChange(event.currentTarget.value)}
    />
  );
}

function Action(props: ActionProps) {
  return <Button size="xs" variant="default" disabled={props.disabled} title={props.title} onClick={(event) => props.handleOnClick(event)}>{props.label}</Button>;
}

function RemoveAction(props: ActionProps) {
  return <ActionIcon size="md" color="red.9" variant="subtle" aria-label={props.title} onClick={(event) => props.handleOnClick(event)}>×</ActionIcon>;
}

function ShiftActions(props: ShiftActionsProps) {
  return (
    <Group gap={2}>
      <ActionIcon size="md" variant="subtle" aria-label={props.titles?.shiftUp} disabled={props.shiftUpDisabled} onClick={(event) => props.shiftUp(event)}>↑</ActionIcon>
      <ActionIcon size="md" variant="subtle" aria-label={props.titles?.shiftDown} disabled={props.shiftDownDisabled} onClick={(event) => props.shiftDown(event)}>↓</ActionIcon>
    </Group>
  );
}

export const builderControls = {
  fieldSelector: Selector,
  operatorSelector: Selector,
  combinatorSelector: Selector,
  valueEditor: ValueEditor,
  addRuleAction: Action,
  addGroupAction: Action,
  removeRuleAction: RemoveAction,
  removeGroupAction: RemoveAction,
  shiftActions: ShiftActions,
};
