import { createDeflate, crc32 } from 'node:zlib';
import sharp from 'sharp';

// Image files for the upload tests: real ones made with the image library, and hostile ones built by hand.

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A decompression bomb: a PNG whose header declares width × height one-bit grey pixels, all zero, its
 * data deflated as it is made (20000 × 20000 is about 50 KB of file for 400 MB of pixels once decoded).
 */
export async function pngBomb(width: number, height: number): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8); // bit depth 1
  header.writeUInt8(0, 9); // grey
  const rowsAtOnce = 100;
  const rows = Buffer.alloc((Math.ceil(width / 8) + 1) * rowsAtOnce); // filter byte 0 and zero pixels per row
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  for (let row = 0; row < height; row += rowsAtOnce) {
    const count = Math.min(rowsAtOnce, height - row);
    if (!deflate.write(rows.subarray(0, (rows.length / rowsAtOnce) * count))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', Buffer.concat(chunks)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A real photo-like JPEG (a gradient) of width × height, with EXIF: an orientation and a description. */
export async function realJpeg(width: number, height: number, options: { orientation?: number; description?: string } = {}): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = 200;
      pixels[i + 1] = Math.floor((x / width) * 60);
      pixels[i + 2] = Math.floor((y / height) * 60);
    }
  }
  let image = sharp(pixels, { raw: { width, height, channels: 3 } });
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  if (options.description) image = image.withExifMerge({ IFD0: { ImageDescription: options.description } });
  return image.jpeg({ quality: 90 }).toBuffer();
}

/** A real PNG of one colour. */
export function realPng(width: number, height: number, rgb: [number, number, number] = [30, 90, 200]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

/** A valid 1×1 PNG padded to exactly `size` bytes with a private ancillary chunk (which decoders skip). */
export async function pngOfSize(size: number): Promise<Buffer> {
  const png = await realPng(1, 1);
  const iend = png.length - 12; // the IEND chunk is the last 12 bytes
  const padding = size - png.length - 12;
  if (padding < 0) throw new Error(`a PNG cannot be as small as ${size} bytes`);
  return Buffer.concat([png.subarray(0, iend), pngChunk('prVt', Buffer.alloc(padding, 0x61)), png.subarray(iend)]);
}

/** JPEG magic and a JFIF-looking start, then a web page. */
export function htmlBehindJpegMagic(): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
    Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>'),
  ]);
}

/** PNG magic, then a web page. */
export function htmlBehindPngMagic(): Buffer {
  return Buffer.concat([PNG_SIGNATURE, Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]);
}

/** A small real JPEG whose frame header (SOF0) is rewritten to declare width × height. */
export async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await realJpeg(8, 8));
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error('no SOF0 marker');
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}

export async function dimensionsOf(bytes: Buffer): Promise<{ format: string; width: number; height: number; exif: boolean; orientation: number | undefined }> {
  const meta = await sharp(bytes).metadata();
  return { format: meta.format, width: meta.width, height: meta.height, exif: meta.exif !== undefined, orientation: meta.orientation };
}
