/**
 * Typed arrays laid out in one ArrayBuffer. The search engine keeps thousands of loaded files as typed arrays
 * (an /ask chunk's reader has ten, a chunk of passages four): one buffer each cost an ArrayBuffer object on the JS
 * heap (~100 bytes) and a separately allocated backing store (~150 bytes of bookkeeping outside it). At N = 1,000,
 * after the bench's minute of load, that was ~35,000 buffers for ~2,300 readers and ~1,900 chunks.
 */
export type ArrayKind = Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor | Float64ArrayConstructor;

type Views<K extends readonly (readonly [ArrayKind, number])[]> = { -readonly [I in keyof K]: InstanceType<K[I][0]> };

/**
 * One zeroed view per [kind, length], in order, each starting at a multiple of its element size. They share one
 * buffer: `views[i].buffer.byteLength` is the bytes of all of them, with padding.
 */
export function viewsOfOneBuffer<const K extends readonly (readonly [ArrayKind, number])[]>(specs: K): Views<K> {
  let bytes = 0;
  const offsets = specs.map(([Kind, length]) => {
    if (!Number.isInteger(length) || length < 0) throw new RangeError(`viewsOfOneBuffer: invalid length ${length}`);
    const size = Kind.BYTES_PER_ELEMENT;
    const at = Math.ceil(bytes / size) * size;
    bytes = at + length * size;
    return at;
  });
  const buffer = new ArrayBuffer(bytes);
  return specs.map(([Kind, length], i) => new Kind(buffer, offsets[i], length)) as Views<K>;
}

/** The bytes of a string in UTF-8 (what TextEncoder.encode would return), without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 code units, 4 bytes
      i++;
    } else bytes += 2; // other 3-byte characters, and a lone surrogate (encoded as U+FFFD, 3 bytes)
  }
  return bytes;
}
