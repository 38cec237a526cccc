import { describe, expect, it } from 'vitest';
import { attribute, editHtml } from './html-edit';

const page = `<!doctype html>
<html><head>
  <link rel="stylesheet" crossorigin href="/assets/style.css">
  <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  <!-- <link rel="stylesheet" href="/commented.css"> -->
</head><body><p>a &amp; b</p></body></html>`;

describe('editHtml', () => {
  it('replaces elements and attribute values in place, leaving every other byte as it was', () => {
    const edited = editHtml(page, (element) => {
      if (element.tagName === 'link' && attribute(element, 'rel') === 'stylesheet') {
        return { element: '<style>p{}</style>' };
      }
      if (element.tagName === 'link' && attribute(element, 'rel') === 'icon') {
        return { attribute: 'href', value: 'data:x' };
      }
      return undefined;
    });
    expect(edited).toBe(
      page
        .replace('<link rel="stylesheet" crossorigin href="/assets/style.css">', '<style>p{}</style>')
        .replace('href="/favicon.svg"', 'href="data:x"'),
    );
    expect(edited).toContain('<!-- <link rel="stylesheet" href="/commented.css"> -->');
  });
});
