//! Work spread over threads natively, run in turn on wasm32 (which has none): the advisor's
//! candidates and the analysis's runs of blocks. Results come back in the items' order, so
//! they never depend on the thread count.

/// The threads to use for `threads` (0: every core; always 1 on wasm32).
#[cfg(target_arch = "wasm32")]
pub(crate) fn count(_threads: u32) -> usize {
    1
}

/// The threads to use for `threads` (0: every core; always 1 on wasm32).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn count(threads: u32) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t as usize,
    }
}

/// `f` of every item, in order, in turn.
#[cfg(target_arch = "wasm32")]
pub(crate) fn map<T: Sync, R: Send>(
    items: &[T],
    _n: usize,
    f: &(dyn Fn(&T) -> R + Sync),
) -> Vec<R> {
    items.iter().map(f).collect()
}

/// `f` of every item, in order: `n` workers (this thread one of them) take the next item until
/// none is left. A worker that cannot be started, or that fails, leaves its items to this
/// thread.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn map<T: Sync, R: Send>(items: &[T], n: usize, f: &(dyn Fn(&T) -> R + Sync)) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    if n <= 1 || items.len() <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || -> Vec<(usize, R)> {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(item)));
        }
    };
    let mut slots: Vec<Option<R>> = items.iter().map(|_| None).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..n)
            .filter_map(|_| std::thread::Builder::new().spawn_scoped(s, work).ok())
            .collect();
        let mut all = work();
        for h in handles {
            if let Ok(mut d) = h.join() {
                all.append(&mut d);
            }
        }
        for (i, r) in all {
            if let Some(slot) = slots.get_mut(i) {
                *slot = Some(r);
            }
        }
    });
    slots
        .into_iter()
        .zip(items)
        .map(|(s, item)| s.unwrap_or_else(|| f(item)))
        .collect()
}
