// Grouped bar chart (req/s and server CPU µs per request per scenario), drawn once as primitives and
// rendered both to SVG and to PNG (tiny rasterizer + 5×7 bitmap font + node:zlib; no native deps).
import { deflateSync } from 'node:zlib';

const COLORS = { api: '#d62728', raw: '#7f7f7f', fastify: '#1f77b4', hono: '#ff7f0e', express: '#2ca02c' };
const color = (name, i) => COLORS[name] ?? ['#9467bd', '#8c564b', '#e377c2', '#17becf'][i % 4];

function niceMax(x) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}
const fmtTick = (v) => (v >= 1000 ? `${+(v / 1000).toFixed(1)}k` : `${+v.toFixed(1)}`);

/** Layout → primitives: {t:'rect',x,y,w,h,fill} | {t:'line',x1,y1,x2,y2,stroke} | {t:'text',x,y,s,anchor,size,fill}. */
function layout({ scenarios, servers, rows, title }) {
  const P = [];
  const W = Math.max(640, 120 + scenarios.length * (servers.length * 22 + 40));
  const panelH = 230;
  const left = 70;
  const right = W - 20;
  const panels = [
    { label: 'req/s (median, whisker min-max; higher is better)', get: (r) => [r.rps, r.rpsMin, r.rpsMax] },
    { label: 'server CPU us per request (median; lower is better)', get: (r) => [r.cpuUsPerReq] },
  ];
  P.push({ t: 'text', x: left, y: 22, s: title, anchor: 'start', size: 14, fill: '#000' });
  // legend
  let lx = left;
  servers.forEach((n, i) => {
    P.push({ t: 'rect', x: lx, y: 34, w: 12, h: 12, fill: color(n, i) });
    P.push({ t: 'text', x: lx + 16, y: 45, s: n, anchor: 'start', size: 12, fill: '#000' });
    lx += 30 + n.length * 8;
  });
  const H = 60 + panels.length * (panelH + 50);
  panels.forEach((panel, pi) => {
    const top = 60 + pi * (panelH + 50) + 20;
    const bottom = top + panelH - 20;
    let max = 0;
    for (const sc of scenarios)
      for (const n of servers)
        for (const v of rows[sc]?.[n] ? panel.get(rows[sc][n]) : []) if (v > max) max = v;
    max = niceMax(max);
    P.push({ t: 'text', x: left, y: top - 6, s: panel.label, anchor: 'start', size: 12, fill: '#000' });
    for (let k = 0; k <= 4; k++) {
      const v = (max * k) / 4;
      const y = bottom - ((bottom - top) * k) / 4;
      P.push({ t: 'line', x1: left, y1: y, x2: right, y2: y, stroke: k === 0 ? '#000' : '#ddd' });
      P.push({ t: 'text', x: left - 6, y: y + 4, s: fmtTick(v), anchor: 'end', size: 11, fill: '#333' });
    }
    const groupW = (right - left) / scenarios.length;
    const barW = Math.min(28, (groupW - 20) / servers.length);
    scenarios.forEach((sc, si) => {
      const gx = left + si * groupW + (groupW - barW * servers.length) / 2;
      servers.forEach((n, i) => {
        const r = rows[sc]?.[n];
        if (!r) return;
        const [v, lo, hi] = panel.get(r);
        if (!Number.isFinite(v)) return;
        const x = gx + i * barW;
        const y = bottom - ((bottom - top) * v) / max;
        P.push({ t: 'rect', x: x + 1, y, w: barW - 2, h: bottom - y, fill: color(n, i) });
        if (Number.isFinite(lo) && Number.isFinite(hi) && hi > lo) {
          const cx = x + barW / 2;
          const ylo = bottom - ((bottom - top) * lo) / max;
          const yhi = bottom - ((bottom - top) * hi) / max;
          P.push({ t: 'line', x1: cx, y1: ylo, x2: cx, y2: yhi, stroke: '#000' });
          P.push({ t: 'line', x1: cx - 3, y1: yhi, x2: cx + 3, y2: yhi, stroke: '#000' });
          P.push({ t: 'line', x1: cx - 3, y1: ylo, x2: cx + 3, y2: ylo, stroke: '#000' });
        }
      });
      P.push({
        t: 'text',
        x: left + si * groupW + groupW / 2,
        y: bottom + 16,
        s: sc,
        anchor: 'middle',
        size: 12,
        fill: '#000',
      });
    });
  });
  return { W, H, P };
}

const esc = (s) =>
  String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

export function barChartSvg(data) {
  const { W, H, P } = layout(data);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
  ];
  const n = (x) => +x.toFixed(1);
  for (const p of P) {
    if (p.t === 'rect')
      out.push(`<rect x="${n(p.x)}" y="${n(p.y)}" width="${n(p.w)}" height="${n(p.h)}" fill="${p.fill}"/>`);
    else if (p.t === 'line')
      out.push(
        `<line x1="${n(p.x1)}" y1="${n(p.y1)}" x2="${n(p.x2)}" y2="${n(p.y2)}" stroke="${p.stroke}" stroke-width="1"/>`,
      );
    else
      out.push(
        `<text x="${n(p.x)}" y="${n(p.y)}" font-size="${p.size}" text-anchor="${p.anchor}" fill="${p.fill}">${esc(p.s)}</text>`,
      );
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------- PNG
// 5×7 font, rows top to bottom, 5 bits each (MSB = left). Lower case is drawn as upper case.
const FONT = {
  A: [14, 17, 17, 31, 17, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [30, 17, 17, 17, 17, 17, 30],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 10, 4, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
  0: [14, 17, 19, 21, 25, 17, 14],
  1: [4, 12, 4, 4, 4, 4, 14],
  2: [14, 17, 1, 2, 4, 8, 31],
  3: [31, 2, 4, 2, 1, 17, 14],
  4: [2, 6, 10, 18, 31, 2, 2],
  5: [31, 16, 30, 1, 1, 17, 14],
  6: [6, 8, 16, 30, 17, 17, 14],
  7: [31, 1, 2, 4, 8, 8, 8],
  8: [14, 17, 17, 14, 17, 17, 14],
  9: [14, 17, 17, 15, 1, 2, 12],
  ' ': [0, 0, 0, 0, 0, 0, 0],
  '.': [0, 0, 0, 0, 0, 12, 12],
  ',': [0, 0, 0, 0, 12, 4, 8],
  '-': [0, 0, 0, 31, 0, 0, 0],
  '/': [1, 1, 2, 4, 8, 16, 16],
  ':': [0, 12, 12, 0, 12, 12, 0],
  '(': [2, 4, 8, 8, 8, 4, 2],
  ')': [8, 4, 2, 2, 2, 4, 8],
  '@': [14, 17, 23, 21, 23, 16, 14],
  ';': [0, 12, 12, 0, 12, 4, 8],
  '%': [24, 25, 2, 4, 8, 19, 3],
  _: [0, 0, 0, 0, 0, 0, 31],
  '+': [0, 4, 4, 31, 4, 4, 0],
  '=': [0, 0, 31, 0, 31, 0, 0],
  '?': [14, 17, 1, 2, 4, 0, 4],
};

function hex(c) {
  const h = c.length === 4 ? c.replace(/[0-9a-f]/gi, (d) => d + d) : c;
  const v = parseInt(h.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

export function barChartPng(data) {
  const { W, H, P } = layout(data);
  const px = Buffer.alloc(W * H * 3, 255);
  const set = (x, y, [r, g, b]) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    const i = (y * W + x) * 3;
    px[i] = r;
    px[i + 1] = g;
    px[i + 2] = b;
  };
  const fill = (x0, y0, w, h, c) => {
    for (let y = Math.round(y0); y < Math.round(y0 + h); y++)
      for (let x = Math.round(x0); x < Math.round(x0 + w); x++) set(x, y, c);
  };
  for (const p of P) {
    if (p.t === 'rect') fill(p.x, p.y, p.w, p.h, hex(p.fill));
    else if (p.t === 'line') {
      // axis-aligned lines only
      const c = hex(p.stroke);
      if (Math.round(p.y1) === Math.round(p.y2))
        fill(Math.min(p.x1, p.x2), p.y1, Math.abs(p.x2 - p.x1) + 1, 1, c);
      else fill(p.x1, Math.min(p.y1, p.y2), 1, Math.abs(p.y2 - p.y1) + 1, c);
    } else {
      const scale = p.size >= 14 ? 2 : 1;
      const s = String(p.s).toUpperCase();
      const adv = 6 * scale;
      const width = s.length * adv;
      let x = p.anchor === 'middle' ? p.x - width / 2 : p.anchor === 'end' ? p.x - width : p.x;
      const y = p.y - 7 * scale;
      const c = hex(p.fill);
      for (const ch of s) {
        const g = FONT[ch] ?? FONT['?'];
        for (let row = 0; row < 7; row++)
          for (let col = 0; col < 5; col++)
            if (g[row] & (16 >> col)) fill(x + col * scale, y + row * scale, scale, scale, c);
        x += adv;
      }
    }
  }
  const raw = Buffer.alloc((W * 3 + 1) * H);
  for (let y = 0; y < H; y++) {
    raw[y * (W * 3 + 1)] = 0;
    px.copy(raw, y * (W * 3 + 1) + 1, y * W * 3, (y + 1) * W * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
