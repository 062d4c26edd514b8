//! The four bytes that open each of the engine's own byte formats, in one table: a buffer handed
//! to the wrong reader is refused by them, which holds only while no two formats share them.

/// A partial analysis of rows (`analyze::run::rows::partial`), merged across processes.
pub(crate) const PARTIAL: [u8; 4] = *b"RKLP";
/// A chunk of encoded rows (`analyze::run::rows::chunk`), read by a worker.
pub(crate) const CHUNK: [u8; 4] = *b"RKLC";
/// A sample of a file's rows (`rows::sample`).
pub(crate) const SAMPLE: [u8; 4] = *b"RKLS";
/// A shared reading's chunk: each design's chunk after it (`analyze::run::rows::shared`).
pub(crate) const SHARED_CHUNK: [u8; 4] = *b"RKLH";
/// A partial of `verify`'s counts (`rekey::verify::partial`).
pub(crate) const VERIFY: [u8; 4] = *b"RKLV";

/// Every format's magic, by the name its reader's errors use.
#[cfg(test)]
pub(crate) const ALL: [(&str, [u8; 4]); 5] = [
    ("partial analysis", PARTIAL),
    ("rows chunk", CHUNK),
    ("row sample", SAMPLE),
    ("shared reading chunk", SHARED_CHUNK),
    ("verify partial", VERIFY),
];

#[cfg(test)]
mod tests {
    #[test]
    fn no_two_formats_share_their_magic() {
        for (i, (a, x)) in super::ALL.iter().enumerate() {
            for (b, y) in super::ALL.iter().skip(i + 1) {
                assert_ne!(x, y, "{a} and {b} open with the same bytes");
            }
        }
    }
}
