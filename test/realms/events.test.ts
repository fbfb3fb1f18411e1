import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, eventDescription, eventTitle } from '../../src/shared/event-catalog.js';

describe('business event catalogue', () => {
  it('titles the built-in types in English and Spanish, and custom types not at all', () => {
    expect(eventTitle('user_login_log')).toBe('Login');
    expect(eventTitle('user_logout_log')).toBe('Logout');
    expect(eventTitle('user_login_attempt_failed_log')).toBe('Failed login attempt');
    expect(eventTitle('user_updated_log', 'es')).toBe('Perfil actualizado');
    expect(eventTitle('loyalty_points_earned')).toBe('');
    expect(eventTitle('toString')).toBe('');
    expect(Object.keys(EVENT_TYPES)).toHaveLength(12);
    for (const type of Object.keys(EVENT_TYPES)) expect(type).toMatch(/^[a-z]+(_[a-z]+)+$/);
  });

  it('names the realm in the description', () => {
    expect(eventDescription('Personal Banking')).toBe('Realm: Personal Banking');
  });
});
