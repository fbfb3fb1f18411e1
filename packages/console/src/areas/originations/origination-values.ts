import type { AdminComponents, AdminPaths } from '@atrium/client';

type Origination = AdminComponents['schemas']['Origination'];
type Body = AdminPaths['/customers/{realm_uid}/originations']['post']['requestBody']['content']['application/json'];
type TaskType = Body['steps'][number]['tasks'][number]['type'];
type QuestionType = NonNullable<Body['steps'][number]['tasks'][number]['questions']>[number]['type'];

export const TASK_TYPES: TaskType[] = ['input', 'pending_review', 'validation', 'confirmation'];
export const QUESTION_TYPES: QuestionType[] = ['text', 'number', 'date', 'choice', 'file'];

/** The form's values mirror the body, so a 422's paths (`steps.0.tasks.1.questions`) name its fields. */
export interface QuestionValues { id?: number; label: string; type: QuestionType; options: string }
export interface TaskValues { uid?: string; name: string; type: TaskType; content: string; questions: QuestionValues[] }
export interface StepValues { name: string; tasks: TaskValues[] }
export interface OriginationValues { name: string; deadline_days: number | string; steps: StepValues[] }

export const newQuestion = (): QuestionValues => ({ label: '', type: 'text', options: '' });
export const newTask = (): TaskValues => ({ name: '', type: 'input', content: '', questions: [newQuestion()] });
export const newStep = (): StepValues => ({ name: '', tasks: [newTask()] });

/** The values of a saved origination (its tasks and questions keep their uid and id), or of a new one. */
export function originationValues(item?: Origination): OriginationValues {
  if (!item) return { name: '', deadline_days: '', steps: [newStep()] };
  return {
    name: item.name,
    deadline_days: item.deadline_days ?? '',
    steps: item.steps.map((step) => ({
      name: step.name,
      tasks: step.tasks.map((task) => ({
        uid: task.uid, name: task.name, type: task.type as TaskType, content: task.content ?? '',
        questions: task.questions.map((q) => ({ id: q.id, label: q.label, type: q.type as QuestionType, options: q.options.join('\n') })),
      })),
    })),
  };
}

/** The body the admin API takes: options one per line, questions only on input tasks, content only on pending reviews. */
export function originationBody(values: OriginationValues): Body {
  return {
    name: values.name,
    deadline_days: values.deadline_days === '' ? null : Number(values.deadline_days),
    steps: values.steps.map((step) => ({
      name: step.name,
      tasks: step.tasks.map((task) => ({
        ...(task.uid ? { uid: task.uid } : {}),
        name: task.name,
        type: task.type,
        content: task.type === 'pending_review' && task.content ? task.content : null,
        questions: task.type !== 'input' ? [] : task.questions.map((q) => ({
          ...(q.id ? { id: q.id } : {}),
          label: q.label,
          type: q.type,
          options: q.type === 'choice' ? q.options.split('\n').map((option) => option.trim()).filter(Boolean) : [],
        })),
      })),
    })),
  };
}
