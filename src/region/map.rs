//! Region boundaries: membership of a row in `[start, end)` (`HRegion.rowIsInRange`), the
//! end-key comparator where an empty key means "end of table"
//! (`Bytes.RowEndKeyComparator`), the short separator HFile writes into its block index
//! (`HFileWriterImpl.getMinimumMidpointArray`), and [`RegionMap`], the regions a table gets
//! from its split keys (`ModifyRegionUtils.createRegionInfos`).

use std::cmp::Ordering;

use crate::error::{Error, Result};
use crate::hbase::split::verify_split_keys;

/// `HRegion.rowIsInRange`: `row` is in the region `[start, end)`; an empty start or end is
/// unbounded, so the empty row belongs only to a region whose start is empty.
pub fn row_is_in_range(row: &[u8], start: &[u8], end: &[u8]) -> bool {
    (start.is_empty() || start <= row) && (end.is_empty() || end > row)
}

/// `Bytes.RowEndKeyComparator.compare`: unsigned byte order, except that an empty array sorts
/// **after** everything (an empty end key is the end of the table). Only the sign matters.
pub fn row_end_key_compare(a: &[u8], b: &[u8]) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.cmp(b),
    }
}

/// `HFileWriterImpl.getMinimumMidpointArray`: the shortest row `m` with `left < m <= right`
/// that HFile stores in its block index instead of the block's real first row.
///
/// With `d` the first differing position: `left` a proper prefix of `right` gives `left||00`;
/// otherwise `left[..d]` followed by `left[d] + 1`. Equal rows give `None` (HFile then keeps
/// the full key). `left` sorting after `right` is an `IllegalArgument` error, as upstream.
pub fn minimum_midpoint(left: &[u8], right: &[u8]) -> Result<Option<Vec<u8>>> {
    let d = left.iter().zip(right).take_while(|(l, r)| l == r).count();
    match (left.get(d), right.get(d)) {
        (None, None) => Ok(None),
        (None, Some(_)) => {
            let mut m = left.to_vec();
            m.push(0);
            Ok(Some(m))
        }
        (Some(_), None) => Err(Error::arg(
            "left",
            "Left byte array sorts after right row (right is a prefix of left)",
        )
        .at_offset(d)),
        (Some(&l), Some(&r)) => {
            if l > r {
                return Err(
                    Error::arg("left", "Left byte array sorts after right row").at_offset(d)
                );
            }
            // l < r, so l < 0xff and l + 1 <= r: no overflow.
            let mut m = left.get(..d).map(<[u8]>::to_vec).unwrap_or_default();
            m.push(l.wrapping_add(1));
            Ok(Some(m))
        }
    }
}

/// The regions of a table pre-split at some keys: with sorted keys `k0 < … < k(m-1)` the
/// regions are `["",k0), [k0,k1), …, [k(m-1),"")`; with no keys, one region `["","")`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RegionMap {
    keys: Vec<Vec<u8>>,
}

impl RegionMap {
    /// Build from split keys, checked like the client does before `createTable`
    /// ([`verify_split_keys`]: sorted, no empty key, no duplicate).
    pub fn new(split_keys: Vec<Vec<u8>>) -> Result<Self> {
        Ok(RegionMap {
            keys: verify_split_keys(split_keys)?,
        })
    }

    /// Number of regions (split keys + 1, never 0).
    pub fn len(&self) -> usize {
        self.keys.len() + 1
    }

    /// Always `false`: a table has at least one region. Present for API symmetry with `len`.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The sorted split keys.
    pub fn split_keys(&self) -> &[Vec<u8>] {
        &self.keys
    }

    /// Index of the region holding `row` (`[start, end)` rule, binary search).
    pub fn region_of(&self, row: &[u8]) -> usize {
        self.keys.partition_point(|k| k.as_slice() <= row)
    }

    /// Start key of region `i` (empty for the first region); `None` when `i` is out of range.
    pub fn start_key(&self, i: usize) -> Option<&[u8]> {
        match i {
            0 => Some(&[]),
            _ if i < self.len() => self.keys.get(i - 1).map(Vec::as_slice),
            _ => None,
        }
    }

    /// End key of region `i` (empty for the last region); `None` when `i` is out of range.
    pub fn end_key(&self, i: usize) -> Option<&[u8]> {
        match i.cmp(&self.keys.len()) {
            Ordering::Less => self.keys.get(i).map(Vec::as_slice),
            Ordering::Equal => Some(&[]),
            Ordering::Greater => None,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn membership() {
        assert!(row_is_in_range(b"", b"", b""));
        assert!(row_is_in_range(b"b", b"b", b"d"));
        assert!(!row_is_in_range(b"d", b"b", b"d"));
        assert!(!row_is_in_range(b"", b"a", b""));
        assert!(row_is_in_range(b"zzz", b"a", b""));
    }

    #[test]
    fn end_key_order() {
        assert_eq!(row_end_key_compare(b"", b""), Ordering::Equal);
        assert_eq!(row_end_key_compare(b"", b"a"), Ordering::Greater);
        assert_eq!(row_end_key_compare(b"a", b""), Ordering::Less);
        assert_eq!(row_end_key_compare(b"a", b"\xff"), Ordering::Less);
    }

    #[test]
    fn midpoint() {
        assert_eq!(
            minimum_midpoint(b"abc", b"abd").unwrap(),
            Some(b"abd".to_vec())
        );
        assert_eq!(
            minimum_midpoint(b"abc", b"abz").unwrap(),
            Some(b"abd".to_vec())
        );
        assert_eq!(
            minimum_midpoint(b"abc", b"abcde").unwrap(),
            Some(b"abc\0".to_vec())
        );
        assert_eq!(minimum_midpoint(b"abc", b"abc").unwrap(), None);
        assert_eq!(minimum_midpoint(b"", b"a").unwrap(), Some(vec![0]));
        assert_eq!(
            minimum_midpoint(b"\xfe\xff", b"\xff\x00").unwrap(),
            Some(vec![0xff])
        );
        assert_eq!(
            minimum_midpoint(b"abd", b"abc").unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            minimum_midpoint(b"abcd", b"abc").unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
    }

    #[test]
    fn region_map() {
        let m = RegionMap::new(vec![b"m".to_vec(), b"f".to_vec()]).unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(m.region_of(b""), 0);
        assert_eq!(m.region_of(b"a"), 0);
        assert_eq!(m.region_of(b"f"), 1);
        assert_eq!(m.region_of(b"l"), 1);
        assert_eq!(m.region_of(b"m"), 2);
        assert_eq!(m.region_of(b"\xff"), 2);
        assert_eq!(m.start_key(0), Some(&b""[..]));
        assert_eq!(m.start_key(1), Some(&b"f"[..]));
        assert_eq!(m.end_key(1), Some(&b"m"[..]));
        assert_eq!(m.end_key(2), Some(&b""[..]));
        assert_eq!(m.end_key(3), None);
        assert_eq!(m.start_key(3), None);
        for row in [&b""[..], b"a", b"f", b"g", b"m", b"zz"] {
            let i = m.region_of(row);
            assert!(row_is_in_range(
                row,
                m.start_key(i).unwrap(),
                m.end_key(i).unwrap()
            ));
        }
        let one = RegionMap::new(vec![]).unwrap();
        assert_eq!((one.len(), one.region_of(b"x")), (1, 0));
        assert_eq!(
            RegionMap::new(vec![vec![]]).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            RegionMap::new(vec![b"a".to_vec(), b"a".to_vec()])
                .unwrap_err()
                .kind,
            ErrorKind::IllegalArgument
        );
    }
}
