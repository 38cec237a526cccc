import postcss, { type ChildNode, type Container } from 'postcss';

/** Each rule of a stylesheet as one line: its at-rule context, selector and declarations. */
export function cssRules(css: string): Set<string> {
  const rules = new Set<string>();
  const walk = (container: Container, context: string) =>
    container.each((node: ChildNode) => {
      if (node.type === 'rule') {
        const declarations = node.nodes.map((child) => String(child).replace(/\s+/g, ' ')).join(';');
        rules.add(`${context}${node.selector}{${declarations}}`);
      } else if (node.type === 'atrule') {
        const at = `@${node.name} ${node.params}`.trim();
        if (node.nodes) walk(node, `${context}${at} `);
        else rules.add(`${context}${at}`);
      }
    });
  walk(postcss.parse(css), '');
  return rules;
}

/** The rules of `css` that `stylesheet` lacks. */
export const missingRules = (css: string, stylesheet: string) => {
  const present = cssRules(stylesheet);
  return [...cssRules(css)].filter((rule) => !present.has(rule));
};
