import { zipSync, type Zippable } from 'fflate'

// Adds a few small files to a zip the server made, without unpacking it: the new entries go after the existing ones,
// and one central directory (the old entries', then the new ones' with their offsets moved) ends the file. The
// archive's bytes are referenced, not copied, so the browser holds the download once (plus the Blob it saves).

const EOCD_SIGNATURE = 0x06054b50
const EOCD_LENGTH = 22
const CENTRAL_SIGNATURE = 0x02014b50

interface Directory {
  entries: number
  size: number
  offset: number
}

/** The end-of-central-directory record, which a zip without a comment (ours) ends with. */
function directoryOf(zip: Uint8Array): Directory {
  if (zip.length < EOCD_LENGTH) throw new Error('Not a zip archive')
  const view = new DataView(zip.buffer, zip.byteOffset + zip.length - EOCD_LENGTH, EOCD_LENGTH)
  if (view.getUint32(0, true) !== EOCD_SIGNATURE) throw new Error('Not a zip archive')
  return { entries: view.getUint16(10, true), size: view.getUint32(12, true), offset: view.getUint32(16, true) }
}

/** The archive with `files` added (compressed), as the parts of a Blob. */
export function appendToZip(zip: Uint8Array, files: Zippable): BlobPart[] {
  const old = directoryOf(zip)
  const added = zipSync(files, { level: 6 })
  const extra = directoryOf(added)
  const local = added.subarray(0, extra.offset)
  // The new entries' central records, each pointing at its local header where it now lies.
  const central = added.slice(extra.offset, extra.offset + extra.size)
  const view = new DataView(central.buffer)
  for (let at = 0, n = 0; n < extra.entries; n += 1) {
    if (view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw new Error('Unexpected zip layout')
    view.setUint32(at + 42, view.getUint32(at + 42, true) + old.offset, true)
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
  }
  const entries = old.entries + extra.entries
  if (entries > 0xffff) throw new Error('Too many files for one archive')
  const end = new Uint8Array(EOCD_LENGTH)
  const endView = new DataView(end.buffer)
  endView.setUint32(0, EOCD_SIGNATURE, true)
  endView.setUint16(8, entries, true)
  endView.setUint16(10, entries, true)
  endView.setUint32(12, old.size + extra.size, true)
  endView.setUint32(16, old.offset + local.length, true)
  return [
    zip.subarray(0, old.offset),
    local,
    zip.subarray(old.offset, old.offset + old.size),
    central,
    end,
  ] as BlobPart[]
}
