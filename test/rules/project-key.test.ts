/** One rule makes a project key from a name, for every importer and profile (issue 36, item 2). */
import { describe, expect, it } from 'vitest';
import { keyCandidates } from '../../src/profiles/devplanner/projects.js';
import { keyCandidates as profileKeys } from '../../src/profiles/serve.js';
import { keyFrom, keyInitials, keyLetters, keyVariants } from '../../src/core/rules/project-key.js';

describe('project keys from names', () => {
  it('drop accents rather than letters: Café is CAFE for an import and for DevPlanner alike', () => {
    expect(keyLetters('Café')).toBe('CAFE');
    expect(keyFrom('café-app', 'X')).toBe('CAFEAPP');
    expect(keyCandidates('Café')).toContain('CAFE');
    expect(keyCandidates('Café')).not.toContain('CAF');
    // A castle or tx project made on first write from its directory's name.
    expect(profileKeys('CASTLE', '/home/me/src/Café')[0]).toBe('CAFE');
    expect(profileKeys('TX', '/srv/x')[0]).toBe('TX');
  });

  it('keep 2–10 letters, else the fallback', () => {
    expect(keyLetters('a')).toBe('');
    expect(keyFrom('42', 'TM')).toBe('TM');
    expect(keyLetters('Extraordinarily long name')).toBe('EXTRAORDIN');
  });

  it('initials come from words, and variants append a letter or replace the tenth', () => {
    expect(keyInitials('Media Manager')).toBe('MM');
    expect(keyInitials('Élan Vital')).toBe('EV');
    expect(keyVariants(['MM', 'EXTRAORDIN']).slice(0, 3)).toEqual(['MM', 'EXTRAORDIN', 'MMA']);
    expect(keyVariants(['EXTRAORDIN'])[1]).toBe('EXTRAORDIA');
  });
});
