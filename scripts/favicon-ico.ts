/**
 * Writes public/favicon.ico from public/favicon.svg: 16, 32 and 48 pixel PNGs in one ICO file
 * (the format allows PNG entries). Browsers ask for /favicon.ico on their own, whatever icon
 * the page names; without the file every page logged a 404. Run again when the SVG changes:
 * `node scripts/favicon-ico.ts`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';

const SIZES = [16, 32, 48];
const HEADER_BYTES = 6;
const ENTRY_BYTES = 16;

const svg = await readFile(new URL('../public/favicon.svg', import.meta.url));
const images = await Promise.all(
  SIZES.map((size) =>
    sharp(svg, { density: 72 * (size / 32) * 4 })
      .resize(size, size)
      .png()
      .toBuffer(),
  ),
);

const header = Buffer.alloc(HEADER_BYTES);
header.writeUInt16LE(0, 0); // reserved
header.writeUInt16LE(1, 2); // 1: an icon
header.writeUInt16LE(images.length, 4);

let offset = HEADER_BYTES + ENTRY_BYTES * images.length;
const entries = images.map((image, index) => {
  const size = SIZES[index] as number;
  const entry = Buffer.alloc(ENTRY_BYTES);
  entry.writeUInt8(size, 0); // width
  entry.writeUInt8(size, 1); // height
  entry.writeUInt8(0, 2); // no palette
  entry.writeUInt8(0, 3); // reserved
  entry.writeUInt16LE(1, 4); // colour planes
  entry.writeUInt16LE(32, 6); // bits per pixel
  entry.writeUInt32LE(image.length, 8);
  entry.writeUInt32LE(offset, 12);
  offset += image.length;
  return entry;
});

await writeFile(new URL('../public/favicon.ico', import.meta.url), Buffer.concat([header, ...entries, ...images]));
