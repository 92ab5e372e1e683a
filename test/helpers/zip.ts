// A minimal zip writer (deflate, no zip64) for tests that upload zips built on the spot: an .xlsx's
// layout, a zip holding a gzip.
import zlib from 'node:zlib';

function header(size: number, fields: Array<[offset: number, bits: 16 | 32, value: number]>) {
  const buf = Buffer.alloc(size);
  for (const [offset, bits, value] of fields)
    if (bits === 16) buf.writeUInt16LE(value, offset);
    else buf.writeUInt32LE(value, offset);
  return buf;
}

export function zipOf(files: Array<[name: string, content: string | Buffer]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const data = Buffer.from(content);
    const deflated = zlib.deflateRawSync(data);
    const crc = zlib.crc32(data);
    const nameBuf = Buffer.from(name);
    const local = header(30, [
      [0, 32, 0x04034b50],
      [4, 16, 20],
      [8, 16, 8],
      [10, 32, 0x00210000],
      [14, 32, crc],
      [18, 32, deflated.length],
      [22, 32, data.length],
      [26, 16, nameBuf.length],
    ]);
    const central = header(46, [
      [0, 32, 0x02014b50],
      [4, 16, 20],
      [6, 16, 20],
      [10, 16, 8],
      [12, 32, 0x00210000],
      [16, 32, crc],
      [20, 32, deflated.length],
      [24, 32, data.length],
      [28, 16, nameBuf.length],
      [42, 32, offset],
    ]);
    locals.push(local, nameBuf, deflated);
    centrals.push(Buffer.concat([central, nameBuf]));
    offset += local.length + nameBuf.length + deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = header(22, [
    [0, 32, 0x06054b50],
    [8, 16, files.length],
    [10, 16, files.length],
    [12, 32, cd.length],
    [16, 32, offset],
  ]);
  return Buffer.concat([...locals, cd, end]);
}
