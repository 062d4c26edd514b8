//! How wide a segment may be where the walk stands: its own width, the rest of the key, up to
//! each occurrence of the separator after it (at most [`MAX_SPLITS`]), or what the fixed
//! segments after it leave. Apart from the walk, which tries each width in turn and backs up;
//! the boundaries ([`Boundary`](super::Boundary)) ask the separator's question too.

use super::{derr, op_name, Decoding, Frame, MAX_SPLITS};
use crate::error::Result;
use crate::hbase::bytes;
use crate::keyspec::compile::Op;

impl Decoding<'_> {
    /// The widths `op` may take at `pos`: its own, the rest of the key, up to each occurrence
    /// of the separator after it, or what the fixed segments after it leave.
    pub(super) fn widths(
        &self,
        op: &Op,
        rest: &[Op],
        cont: &[Frame],
        pos: usize,
    ) -> Result<Vec<usize>> {
        let avail = self.key.len().saturating_sub(pos);
        match op.width() {
            Some(w) => Ok(vec![w]),
            None => match Self::first_of(rest, cont) {
                None => Ok(vec![avail]),
                Some(Op::Lit(sep)) if !sep.is_empty() => self.separator_widths(op, sep, pos),
                Some(_) => {
                    let tail = self.fixed_tail(op, rest, cont, pos)?;
                    Ok(vec![avail.checked_sub(tail).ok_or_else(|| {
                        derr(
                            pos,
                            format!(
                                "key too short: {avail} bytes left at byte {pos}, the fixed segments after {} need {tail}",
                                op_name(self.ck, op)
                            ),
                        )
                    })?])
                }
            },
        }
    }

    /// The widths from `pos` to each occurrence of the separator `sep` (at most
    /// [`MAX_SPLITS`]).
    pub(super) fn separator_widths(&self, op: &Op, sep: &[u8], pos: usize) -> Result<Vec<usize>> {
        let found: Vec<usize> = self
            .key
            .get(pos..)
            .unwrap_or(&[])
            .windows(sep.len())
            .enumerate()
            .filter(|(_, w)| *w == sep)
            .map(|(i, _)| i)
            .take(MAX_SPLITS)
            .collect();
        if found.is_empty() {
            return Err(derr(
                pos,
                format!(
                    "{} runs to the separator \"{}\", which does not occur after byte {pos}",
                    op_name(self.ck, op),
                    bytes::to_string_binary(sep)
                ),
            ));
        }
        Ok(found)
    }

    /// The bytes the segments after the variable-width `op` take, all of them fixed.
    fn fixed_tail(&self, op: &Op, rest: &[Op], cont: &[Frame], pos: usize) -> Result<usize> {
        let mut tail = 0usize;
        let frames = cont.iter().filter_map(|c| match c {
            Frame::Ops(o) => Some(o.iter()),
            Frame::EndWhen(_) => None,
        });
        for o in rest.iter().chain(frames.flatten()) {
            match o.width() {
                Some(w) => tail = tail.saturating_add(w),
                None => {
                    return Err(derr(
                        pos,
                        format!(
                            "{} has a variable width and is followed by another variable segment without a separator: the key cannot be split",
                            op_name(self.ck, op)
                        ),
                    ))
                }
            }
        }
        Ok(tail)
    }
}
