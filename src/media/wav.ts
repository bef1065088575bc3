/** RIFF/WAVE PCM files: writing the canonical 44-byte header, and reading any PCM header back. */

export interface WavFormat {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

export interface WavInfo extends WavFormat {
  dataBytes: number;
  durationSeconds: number;
}

export const WAV_HEADER_BYTES = 44;

function writeTag(view: DataView, offset: number, tag: string): void {
  for (let i = 0; i < 4; i++) view.setUint8(offset + i, tag.charCodeAt(i));
}

function readTag(view: DataView, offset: number): string {
  let tag = '';
  for (let i = 0; i < 4; i++) tag += String.fromCharCode(view.getUint8(offset + i));
  return tag;
}

/** Writes the header into the first 44 bytes of `bytes`; the samples follow it. */
export function writeWavHeader(bytes: Uint8Array, format: WavFormat, dataBytes: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, WAV_HEADER_BYTES);
  const blockAlign = format.channels * (format.bitsPerSample / 8);
  writeTag(view, 0, 'RIFF');
  view.setUint32(4, 36 + dataBytes + (dataBytes % 2), true); // chunks are padded to even sizes
  writeTag(view, 8, 'WAVE');
  writeTag(view, 12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, format.channels, true);
  view.setUint32(24, format.sampleRate, true);
  view.setUint32(28, format.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, format.bitsPerSample, true);
  writeTag(view, 36, 'data');
  view.setUint32(40, dataBytes, true);
}

/** Reads a PCM WAV header, walking the chunks so files with extra chunks (LIST, fact) work too. */
export function parseWavHeader(bytes: Uint8Array): WavInfo {
  if (bytes.length < 12) throw new Error('Not a WAV file: shorter than a RIFF header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (readTag(view, 0) !== 'RIFF' || readTag(view, 8) !== 'WAVE') throw new Error('Not a WAV file: missing RIFF/WAVE tags');
  let format: WavFormat | undefined;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = readTag(view, offset);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ') {
      if (size < 16 || offset + 24 > bytes.length) throw new Error('WAV fmt chunk is truncated');
      if (view.getUint16(offset + 8, true) !== 1) throw new Error('WAV is not PCM');
      format = {
        channels: view.getUint16(offset + 10, true),
        sampleRate: view.getUint32(offset + 12, true),
        bitsPerSample: view.getUint16(offset + 22, true),
      };
    } else if (id === 'data') {
      if (!format) throw new Error('WAV data chunk comes before its fmt chunk');
      const dataBytes = Math.min(size, bytes.length - offset - 8);
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
      return { ...format, dataBytes, durationSeconds: bytesPerSecond > 0 ? dataBytes / bytesPerSecond : 0 };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('WAV has no data chunk');
}
