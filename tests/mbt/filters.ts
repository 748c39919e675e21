import type { AnyMachineSnapshot, EventObject } from 'xstate';

/*
 * What a form's view lets a player do, as filters on the model's events. They keep the models of form
 * machines finite and close to how people fill forms in.
 */

interface FieldChange extends EventObject {
  type: 'FIELD.CHANGE';
  field: string;
  value: string;
}

function isFieldChange(event: EventObject): event is FieldChange {
  return event.type === 'FIELD.CHANGE' && 'field' in event && 'value' in event;
}

function valuesOf(snapshot: AnyMachineSnapshot): Record<string, string> {
  return (snapshot.context as { values: Record<string, string> }).values;
}

/** An input fires no change event when its value stays the same. */
export function changesAValue(snapshot: AnyMachineSnapshot, event: EventObject): boolean {
  return !isFieldChange(event) || valuesOf(snapshot)[event.field] !== event.value;
}

/**
 * The player fills the form in the order of the fixtures' first example of each field (a valid answer),
 * one field after the other; a later example of a field (a mistake) is made only in a field already
 * filled in, and the next change puts it right. Without this the model would try every order of every
 * field, which for a long form is millions of states and says nothing more.
 */
export function fillsInOrder(examples: readonly EventObject[]) {
  const answers = new Map<string, string>();
  for (const event of examples) {
    if (isFieldChange(event) && !answers.has(event.field)) answers.set(event.field, event.value);
  }
  return (snapshot: AnyMachineSnapshot, event: EventObject): boolean => {
    if (!isFieldChange(event)) return true;
    const values = valuesOf(snapshot);
    const next = [...answers].find(([field, answer]) => values[field] !== answer);
    if (answers.get(event.field) === event.value) return next?.[0] === event.field;
    // A mistake: only in a field that holds its answer, and only while no other field is wrong.
    return values[event.field] === answers.get(event.field) && (next === undefined || isBefore(answers, event.field, next[0]));
  };
}

function isBefore(answers: Map<string, string>, field: string, other: string): boolean {
  const order = [...answers.keys()];
  return order.indexOf(field) < order.indexOf(other);
}
