import { wiringError } from '../contract/wiring-error';

/** Renders a `str.format`-style template: `{name}` placeholders, `{{` / `}}` literal braces. */
export function renderTemplate(template: string, params: Record<string, unknown>): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === '{') {
      if (template[i + 1] === '{') {
        out += '{';
        i++;
        continue;
      }
      const end = template.indexOf('}', i);
      const key = template.slice(i + 1, end);
      const value = params[key];
      out += typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
      i = end;
    } else if (c === '}') {
      out += '}';
      if (template[i + 1] === '}') i++;
    } else out += c;
  }
  return out;
}

/** The placeholder names a template uses; throws on an unbalanced brace. */
export function templateFields(where: string, template: string): string[] {
  const names: string[] = [];
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '{') {
      if (template[i + 1] === '{') {
        i++;
        continue;
      }
      const end = template.indexOf('}', i);
      if (end < 0)
        throw wiringError(
          'API_WIRING_ERROR_TEMPLATE',
          where,
          `template ${JSON.stringify(template)} has an unclosed "{"`,
          'close it or escape it as "{{"',
        );
      names.push(template.slice(i + 1, end));
      i = end;
    } else if (c === '}') {
      if (template[i + 1] !== '}')
        throw wiringError(
          'API_WIRING_ERROR_TEMPLATE',
          where,
          `template ${JSON.stringify(template)} has a lone "}"`,
          'escape it as "}}"',
        );
      i++;
    }
  }
  return names;
}
