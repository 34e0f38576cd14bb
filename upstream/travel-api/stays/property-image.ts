import type { PropertyImage } from '#shared/upstream/stays.ts';
import { createRandom } from '../random.ts';

const WIDTH = 320;
const HEIGHT = 200;
const SKIES = [
  ['#8ec5fc', '#e0f0ff'],
  ['#f6d365', '#fda085'],
  ['#a1c4fd', '#c2e9fb'],
  ['#ffecd2', '#fcb69f'],
];
const WALLS = ['#f4efe6', '#e9d8c4', '#d9d4cc', '#f2e3d5', '#dfe7ea', '#efe4cf'];

/**
 * A drawing of the hotel's front, the same for the same seed: taller and wider with more stars, in the
 * hotel's colours, as an SVG data URL, so no image leaves the service's own answers and no external
 * address is needed. About 2 KB.
 */
export function propertyImage(
  seed: string,
  rawId: string,
  stars: number,
  palette: readonly string[],
): PropertyImage {
  const random = createRandom(seed, 'hotel-image', rawId);
  const [accent = '#1d4e89', light = '#83c5be'] = palette;
  const [skyTop, skyBottom] = random.pick(SKIES) as [string, string];
  const wall = random.pick(WALLS);
  const floors = Math.min(8, stars + random.int(1, 3));
  const columns = 3 + stars + random.int(0, 1);
  const floorHeight = 17;
  const windowWidth = 14;
  const gap = 8;
  const buildingWidth = columns * (windowWidth + gap) + gap;
  const buildingHeight = floors * floorHeight + 30;
  const left = Math.round((WIDTH - buildingWidth) / 2);
  const ground = HEIGHT - 24;
  const top = ground - buildingHeight;
  const cell = windowWidth + gap;
  // The windows are one pattern; a few lit ones are drawn over it.
  const lit: string[] = [];
  for (let count = random.int(2, 6); count > 0; count--) {
    const x = left + gap + random.int(0, columns - 1) * cell;
    const y = top + 8 + random.int(0, floors - 1) * floorHeight;
    lit.push(`<rect x='${x}' y='${y}' width='${windowWidth}' height='11' fill='#ffe8a3'/>`);
  }
  const doorX = Math.round(WIDTH / 2 - 12);
  const trees = [left - 22, left + buildingWidth + 8]
    .map(
      (x) =>
        `<rect x='${x + 6}' y='${ground - 14}' width='3' height='14' fill='#6b4f3a'/><circle cx='${x + 7.5}' cy='${ground - 20}' r='10' fill='#3f8f5a'/>`,
    )
    .join('');
  const svg = [
    `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${WIDTH} ${HEIGHT}' width='${WIDTH}' height='${HEIGHT}'>`,
    `<defs><linearGradient id='s' x1='0' y1='0' x2='0' y2='1'><stop offset='0' stop-color='${skyTop}'/><stop offset='1' stop-color='${skyBottom}'/></linearGradient></defs>`,
    `<rect width='${WIDTH}' height='${HEIGHT}' fill='url(#s)'/>`,
    `<rect y='${ground}' width='${WIDTH}' height='${HEIGHT - ground}' fill='#9aa5a8'/>`,
    `<rect x='${left}' y='${top}' width='${buildingWidth}' height='${buildingHeight}' fill='${wall}'/>`,
    `<rect x='${left - 4}' y='${top - 6}' width='${buildingWidth + 8}' height='8' fill='${accent}'/>`,
    `<pattern id='w' x='${left + gap}' y='${top + 8}' width='${cell}' height='${floorHeight}' patternUnits='userSpaceOnUse'><rect width='${windowWidth}' height='11' fill='${light}'/></pattern>`,
    `<rect x='${left + gap}' y='${top + 8}' width='${columns * cell - gap}' height='${floors * floorHeight - 6}' fill='url(#w)'/>`,
    ...lit,
    `<rect x='${doorX - 14}' y='${ground - 22}' width='52' height='5' fill='${accent}'/>`,
    `<rect x='${doorX}' y='${ground - 17}' width='24' height='17' fill='${accent}'/>`,
    trees,
    '</svg>',
  ].join('');
  return { url: `data:image/svg+xml,${encodeURIComponent(svg)}`, width: WIDTH, height: HEIGHT };
}
