import { useId } from 'react';
import { ActionIcon, Button, Checkbox, Group, NativeSelect, Text } from '@mantine/core';
import type { ActionProps, NotToggleProps, ShiftActionsProps, ValueSelectorProps } from 'react-querybuilder';
import { ValueEditor } from './value-editor';

/** The builder's controls, drawn with Mantine and each labelled by the title the builder passes (translated). */
type OptionLike = { name: string; label: string; options?: OptionLike[] };
const optionsOf = (props: ValueSelectorProps) =>
  (props.options as OptionLike[]).flatMap((option) => option.options ?? [option]).map((option) => ({ value: option.name, label: option.label }));

function Selector(props: ValueSelectorProps) {
  return (
    <NativeSelect
      aria-label={props.title}
      size="xs"
      value={props.value ?? ''}
      disabled={props.disabled}
      onChange={(event) => props.handleOnChange(event.currentTarget.value)}
      data={optionsOf(props)}
    />
  );
}

/** A group's all/any, read as a sentence: "Users who meet [all of these conditions]". */
function CombinatorSelector(props: ValueSelectorProps) {
  const id = useId();
  return (
    <Group gap={6} wrap="nowrap">
      <Text component="label" htmlFor={id} size="sm">{props.title}</Text>
      <NativeSelect id={id} size="xs" value={props.value ?? ''} disabled={props.disabled} onChange={(event) => props.handleOnChange(event.currentTarget.value)} data={optionsOf(props)} />
    </Group>
  );
}

/** A group's `not`: the users who do not meet its conditions. */
function NotToggle(props: NotToggleProps) {
  return <Checkbox size="xs" label={props.label} checked={props.checked ?? false} disabled={props.disabled} onChange={(event) => props.handleOnChange(event.currentTarget.checked)} />;
}

function Action(props: ActionProps) {
  return <Button size="xs" variant="default" disabled={props.disabled} title={props.title} onClick={(event) => props.handleOnClick(event)}>{props.label}</Button>;
}

function RemoveAction(props: ActionProps) {
  return <ActionIcon size="md" color="red.9" variant="subtle" aria-label={props.title} onClick={(event) => props.handleOnClick(event)}>×</ActionIcon>;
}

function ShiftActions(props: ShiftActionsProps) {
  return (
    <Group gap={2} wrap="nowrap">
      <ActionIcon size="md" variant="subtle" aria-label={props.titles?.shiftUp} disabled={props.shiftUpDisabled} onClick={(event) => props.shiftUp(event)}>↑</ActionIcon>
      <ActionIcon size="md" variant="subtle" aria-label={props.titles?.shiftDown} disabled={props.shiftDownDisabled} onClick={(event) => props.shiftDown(event)}>↓</ActionIcon>
    </Group>
  );
}

export const builderControls = {
  fieldSelector: Selector,
  operatorSelector: Selector,
  combinatorSelector: CombinatorSelector,
  notToggle: NotToggle,
  valueEditor: ValueEditor,
  addRuleAction: Action,
  addGroupAction: Action,
  removeRuleAction: RemoveAction,
  removeGroupAction: RemoveAction,
  shiftActions: ShiftActions,
};
