// Draws the app icon (a white "W" on the brand blue, rounded corners) into web/public as PNGs of the sizes a
// web app is expected to have, and the SVG favicon. Run again after changing the mark: `node scripts/launch.mjs
// run scripts/generate-icons.ts`. PNG encoding is node:zlib's deflate and crc32; nothing else is needed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const BRAND = [0x0b, 0x5c, 0xad] as const;
const out = path.resolve(import.meta.dirname, '..', 'web', 'public');

/** The W as four strokes in a 0..1 square: down, up, down, up. */
const STROKES: [number, number, number, number][] = [
  [0.2, 0.28, 0.34, 0.74],
  [0.34, 0.74, 0.5, 0.4],
  [0.5, 0.4, 0.66, 0.74],
  [0.66, 0.74, 0.8, 0.28],
];

function distanceToSegment(x: number, y: number, [x1, y1, x2, y2]: [number, number, number, number]): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy));
}

/** RGBA pixels of the icon; `maskable` fills the whole square (the platform rounds it) and keeps a safe zone. */
function drawIcon(size: number, maskable: boolean): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const radius = maskable ? 0 : 0.22;
  const scale = maskable ? 0.7 : 1;
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      const x = (column + 0.5) / size;
      const y = (row + 0.5) / size;
      const cx = Math.max(radius, Math.min(1 - radius, x));
      const cy = Math.max(radius, Math.min(1 - radius, y));
      const inside = Math.hypot(x - cx, y - cy) <= radius || radius === 0;
      const mx = (x - 0.5) / scale + 0.5;
      const my = (y - 0.5) / scale + 0.5;
      const stroke = Math.min(...STROKES.map((segment) => distanceToSegment(mx, my, segment))) < 0.065;
      const offset = (row * size + column) * 4;
      if (!inside) continue;
      const [r, g, b] = stroke ? [255, 255, 255] : BRAND;
      pixels.set([r, g, b, 255], offset);
    }
  }
  return pixels;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let row = 0; row < size; row += 1) {
    rows[row * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, row * (size * 4 + 1) + 1, row * size * 4, (row + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const files: [string, number, boolean][] = [
  ['favicon-32.png', 32, false],
  ['apple-touch-icon.png', 180, true],
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['icon-maskable-512.png', 512, true],
];
for (const [name, size, maskable] of files)
  writeFileSync(path.join(out, name), png(size, drawIcon(size, maskable)));

/** favicon.ico for agents that ask for it by name: one 32 px image, stored as PNG inside the ICO container. */
function ico(image: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.set([size, size, 0, 0], 6); // width, height, palette, reserved
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}
writeFileSync(path.join(out, 'favicon.ico'), ico(png(32, drawIcon(32, false)), 32));

const polyline = STROKES.map(([x1, y1], index) => `${index === 0 ? 'M' : 'L'}${x1 * 64} ${y1 * 64}`).join(
  ' ',
);
const last = STROKES.at(-1)!;
writeFileSync(
  path.join(out, 'favicon.svg'),
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b5cad"/>` +
    `<path d="${polyline} L${last[2] * 64} ${last[3] * 64}" fill="none" stroke="#fff" stroke-width="8.3" stroke-linecap="round" stroke-linejoin="round"/></svg>\n`,
);
console.log(`Wrote ${files.length + 2} icons to ${out}`);
