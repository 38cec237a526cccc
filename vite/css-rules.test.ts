import { describe, expect, it } from 'vitest';
import { missingRules } from './css-rules';

const inlined = '.a{color:red}@media (width>1px){.b{margin:0}}@keyframes k{50%{opacity:0}}';

describe('missingRules', () => {
  it('finds none when every rule is in the stylesheet, whatever the order', () => {
    expect(missingRules('@keyframes k{50%{opacity:0}}.a{color:red}', inlined)).toEqual([]);
  });

  it('names a rule the stylesheet lacks, or holds with other declarations or in another context', () => {
    expect(missingRules('.c{color:blue}.a{color:blue}.b{margin:0}', inlined)).toEqual([
      '.c{color:blue}',
      '.a{color:blue}',
      '.b{margin:0}',
    ]);
  });
});
