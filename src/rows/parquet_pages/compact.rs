//! Just enough of Thrift's compact protocol to read a Parquet page header's two sizes
//! (`2: uncompressed_page_size`, `3: compressed_page_size`) and skip every other member by its
//! wire type. Apart from the checks that use it: it reads bytes, they decide what the sizes
//! allow; nothing here allocates from what the input declares.

/// Nesting a page header's structs may have (the real one has three levels).
const MAX_DEPTH: usize = 16;

/// A Thrift compact-protocol reader over `b` from `at`; `None` at any malformed or truncated
/// input.
pub(super) struct Compact<'a> {
    pub(super) b: &'a [u8],
    pub(super) at: usize,
    pub(super) depth: usize,
}

impl Compact<'_> {
    fn byte(&mut self) -> Option<u8> {
        let v = *self.b.get(self.at)?;
        self.at += 1;
        Some(v)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn zigzag(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        let end = self.at.checked_add(n)?;
        (end <= self.b.len()).then(|| self.at = end)
    }

    /// `(uncompressed_page_size, compressed_page_size)` of the `PageHeader` at `at`, the
    /// reader left after it.
    pub(super) fn page_header(&mut self) -> Option<(i64, i64)> {
        let (mut u, mut c) = (None, None);
        let mut id = 0i64;
        loop {
            let h = self.byte()?;
            let ty = h & 0x0f;
            if ty == 0 {
                break;
            }
            id = match h >> 4 {
                0 => self.zigzag()?,
                d => id + i64::from(d),
            };
            match (id, ty) {
                (2, 5) => u = Some(self.zigzag()?),
                (3, 5) => c = Some(self.zigzag()?),
                _ => self.value(ty)?,
            }
        }
        Some((u?, c?))
    }

    /// Skip one value of wire type `ty`.
    fn value(&mut self, ty: u8) -> Option<()> {
        match ty {
            1 | 2 => Some(()),
            3 => self.skip(1),
            4..=6 => self.varint().map(drop),
            7 => self.skip(8),
            8 => {
                let n = usize::try_from(self.varint()?).ok()?;
                self.skip(n)
            }
            9 | 10 => {
                let h = self.byte()?;
                let n = match h >> 4 {
                    15 => usize::try_from(self.varint()?).ok()?,
                    n => usize::from(n),
                };
                self.items(n, &[h & 0x0f])
            }
            11 => {
                let n = usize::try_from(self.varint()?).ok()?;
                if n == 0 {
                    return Some(());
                }
                let kv = self.byte()?;
                self.items(n, &[kv >> 4, kv & 0x0f])
            }
            12 => self.nested(),
            13 => self.skip(16),
            _ => None,
        }
    }

    /// `n` items, each of the wire types `tys` in turn (a bool in a list is one byte).
    fn items(&mut self, n: usize, tys: &[u8]) -> Option<()> {
        // every item takes at least one byte: a count past the bytes left is malformed
        if n > self.b.len().saturating_sub(self.at) {
            return None;
        }
        for _ in 0..n {
            for &t in tys {
                match t {
                    1 | 2 => self.skip(1)?,
                    t => self.value(t)?,
                }
            }
        }
        Some(())
    }

    /// Skip a struct.
    fn nested(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        loop {
            let h = self.byte()?;
            let ty = h & 0x0f;
            if ty == 0 {
                break;
            }
            if h >> 4 == 0 {
                self.zigzag()?;
            }
            self.value(ty)?;
        }
        self.depth -= 1;
        Some(())
    }
}
