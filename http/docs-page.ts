/**
 * The API reference page (`GET /v1/docs`): one self-contained HTML file whose inline script fetches
 * `/v1/openapi.json` and renders it. No CDN, no external asset: it works on an offline install.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<style>
  :root { --fg: #1d232a; --muted: #5b6672; --line: #dde3e9; --bg: #f6f8fa; --accent: #0b62c4; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); display: flex; }
  nav { width: 290px; height: 100vh; overflow: auto; position: sticky; top: 0; border-right: 1px solid var(--line); padding: 16px; background: var(--bg); flex-shrink: 0; }
  nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 18px 0 6px; }
  nav a { display: block; color: var(--fg); text-decoration: none; font-size: 13px; padding: 2px 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  nav a:hover { color: var(--accent); }
  main { padding: 24px 40px; max-width: 1000px; flex: 1; min-width: 0; }
  h1 { margin-top: 0; }
  section.op { border: 1px solid var(--line); border-radius: 8px; margin: 18px 0; padding: 14px 18px; }
  .method { display: inline-block; min-width: 64px; text-align: center; font: 600 12px/22px ui-monospace, monospace; border-radius: 4px; color: #fff; margin-right: 8px; }
  .GET { background: #1f7a4d; } .POST { background: #0b62c4; } .PUT { background: #8a5a00; } .PATCH { background: #6b4bb8; } .DELETE { background: #b3261e; }
  code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
  pre { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 10px; overflow: auto; max-height: 420px; }
  table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; }
  th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 4px 8px; vertical-align: top; font-size: 14px; }
  th { color: var(--muted); font-weight: 600; }
  .muted { color: var(--muted); }
  .scope { float: right; font-size: 12px; color: var(--muted); }
  details summary { cursor: pointer; color: var(--accent); }
</style>
</head>
<body>
<nav id="nav"><strong>API reference</strong></nav>
<main id="main"><p class="muted">Loading the OpenAPI document…</p></main>
<script>
(function () {
  var main = document.getElementById('main');
  var nav = document.getElementById('nav');
  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    (children || []).forEach(function (child) { node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child); });
    return node;
  }
  function resolve(spec, schema, depth) {
    if (!schema || depth > 6) return schema;
    if (schema.$ref) {
      var name = schema.$ref.split('/').pop();
      return resolve(spec, (spec.components.schemas || {})[name], depth + 1);
    }
    var copy = Array.isArray(schema) ? [] : {};
    Object.keys(schema).forEach(function (key) {
      var value = schema[key];
      copy[key] = value && typeof value === 'object' ? resolve(spec, value, depth + 1) : value;
    });
    return copy;
  }
  function schemaBlock(spec, title, schema) {
    return el('details', {}, [el('summary', {}, [title]), el('pre', {}, [JSON.stringify(resolve(spec, schema, 0), null, 2)])]);
  }
  function render(spec) {
    main.innerHTML = '';
    main.appendChild(el('h1', {}, [spec.info.title + ' ' + spec.info.version]));
    if (spec.info.description) main.appendChild(el('p', {}, [spec.info.description]));
    var byTag = {};
    Object.keys(spec.paths).forEach(function (path) {
      Object.keys(spec.paths[path]).forEach(function (method) {
        var operation = spec.paths[path][method];
        var tag = (operation.tags && operation.tags[0]) || 'Other';
        (byTag[tag] = byTag[tag] || []).push({ path: path, method: method.toUpperCase(), operation: operation });
      });
    });
    Object.keys(byTag).forEach(function (tag) {
      nav.appendChild(el('h2', {}, [tag]));
      main.appendChild(el('h2', {}, [tag]));
      byTag[tag].forEach(function (entry) {
        var id = (entry.method + entry.path).replace(/[^A-Za-z0-9]+/g, '-');
        nav.appendChild(el('a', { href: '#' + id }, [entry.method + ' ' + entry.path]));
        var op = entry.operation;
        var section = el('section', { class: 'op', id: id }, [
          el('span', { class: 'scope' }, [op.security && op.security.length === 0 ? 'no authentication' : 'scope: ' + (op['x-required-scope'] || '')]),
          el('div', {}, [el('span', { class: 'method ' + entry.method }, [entry.method]), el('code', {}, [entry.path])]),
          el('p', {}, [el('strong', {}, [op.summary || ''])]),
        ]);
        if (op.description) section.appendChild(el('p', { class: 'muted' }, [op.description]));
        if (op.parameters && op.parameters.length) {
          var rows = op.parameters.map(function (parameter) {
            var schema = parameter.schema || {};
            var range = [schema.type, schema.minimum !== undefined ? 'min ' + schema.minimum : '', schema.maximum !== undefined ? 'max ' + schema.maximum : '', schema.default !== undefined ? 'default ' + schema.default : ''].filter(Boolean).join(', ');
            return el('tr', {}, [el('td', {}, [el('code', {}, [parameter.name])]), el('td', {}, [parameter.in]), el('td', {}, [range]), el('td', {}, [parameter.description || schema.description || ''])]);
          });
          section.appendChild(el('table', {}, [el('tr', {}, [el('th', {}, ['parameter']), el('th', {}, ['in']), el('th', {}, ['type']), el('th', {}, ['description'])])].concat(rows)));
        }
        if (op.requestBody) {
          var content = op.requestBody.content['application/json'];
          if (content) section.appendChild(schemaBlock(spec, 'Request body (application/json)', content.schema));
        }
        Object.keys(op.responses || {}).forEach(function (status) {
          var response = op.responses[status];
          var media = response.content && Object.keys(response.content)[0];
          var title = status + ' ' + (response.description || '');
          if (media && response.content[media].schema) section.appendChild(schemaBlock(spec, title, response.content[media].schema));
          else section.appendChild(el('div', { class: 'muted' }, [title]));
        });
        main.appendChild(section);
      });
    });
  }
  fetch('openapi.json').then(function (response) { return response.json(); }).then(render).catch(function (error) {
    main.innerHTML = '';
    main.appendChild(el('p', {}, ['Could not load openapi.json: ' + error]));
  });
})();
</script>
</body>
</html>
`;
