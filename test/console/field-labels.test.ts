import { describe, expect, it } from 'vitest';
import { fieldLabel, identifierOf, identifierProblem } from '../../packages/console/src/areas/content/field-labels.js';

describe('console: field identifiers derived from labels, and the label an editor reads', () => {
  it('slugifies a label to an identifier the server takes', () => {
    expect(identifierOf('Cover image')).toBe('cover_image');
    expect(identifierOf('  Título del artículo! ')).toBe('titulo_del_articulo');
    expect(identifierOf('Crème brûlée — price (€)')).toBe('creme_brulee_price');
    expect(identifierOf('3D model')).toBe('f_3d_model');
    expect(identifierOf('名前')).toBe('');
    const long = identifierOf('word '.repeat(30));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(identifierProblem(long, [])).toBeNull();
  });

  it('checks an identifier by the server\'s rule, then against the other fields', () => {
    expect(identifierProblem('', [])).toBeNull();
    expect(identifierProblem('Price!', [])).toBe('rule');
    expect(identifierProblem('_x', [])).toBe('rule');
    expect(identifierProblem('a'.repeat(65), [])).toBe('rule');
    expect(identifierProblem('cost', ['cost'])).toBe('taken');
    expect(identifierProblem('cost', ['price'])).toBeNull();
  });

  it('names a field by its label in the console\'s language, else the space\'s default locale, else its identifier', () => {
    const field = { name: 'cover', labels: { en: 'Cover', 'es-ES': 'Portada' } };
    expect(fieldLabel(field, 'es', 'en')).toBe('Portada');
    expect(fieldLabel(field, 'en', 'en')).toBe('Cover');
    expect(fieldLabel({ name: 'cover', labels: { en: 'Cover' } }, 'es', 'en')).toBe('Cover');
    expect(fieldLabel({ name: 'cover', labels: {} }, 'es', 'en')).toBe('cover');
  });
});
