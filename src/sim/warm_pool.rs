//! Keeps one of rayon's threads awake between one step's parallel stage 2 and the next, so that
//! the next stage 2 does not begin with a sleeping thread.
//!
//! Why: an idle rayon thread looks for work for a few dozen rounds and then sleeps, and the
//! serial stages 3–7 and the next step's stage 1 (rapier's step among them: about 80 µs with
//! 100 robots) outlast that. Every stage 2 then began by waking it: the stepping thread made
//! the wake-up call and the woken thread started its first robot late. Measured with 100 scouts
//! on the bench field (2 threads, this development machine): the stepping thread's first robot
//! began 24 µs into stage 2 and the other thread's 53 µs in, a stage of 267 µs whose work took
//! 208 µs a thread.
//!
//! How: after stage 2 a job is handed to rayon that spins (`std::hint::spin_loop`) until the
//! next stage 2 begins ([`WarmPool::release`]) or [`WARM_FOR`] has passed, whichever is first;
//! the thread that runs it is awake and looking for work when stage 2's jobs arrive. Nothing
//! is computed on it, so nothing depends on when or whether it runs: the numbers are the same
//! for any thread count and any timing. It spins only while a program keeps stepping (at
//! most [`WARM_FOR`] after its last step), and only in scenes that step their robots on
//! threads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest a thread is kept spinning for the next step: several times the serial stages'
/// time with 100 robots (about 80 µs here), a small share of the 5 ms a real-time program waits
/// between steps.
pub const WARM_FOR: Duration = Duration::from_micros(500);

/// The flag a keep-warm job spins on (see the module docs).
#[derive(Debug)]
pub(crate) struct WarmPool {
    /// Set when the next stage 2 begins; the job spinning on it then returns.
    released: Arc<AtomicBool>,
    /// How long a job spins unreleased ([`WARM_FOR`]).
    warm_for: Duration,
}

impl Default for WarmPool {
    fn default() -> Self {
        Self {
            released: Arc::default(),
            warm_for: WARM_FOR,
        }
    }
}

impl WarmPool {
    /// Stage 2 begins: a thread kept warm for it stops spinning and takes its share.
    pub(crate) fn release(&self) {
        self.released.store(true, Ordering::Release);
    }

    /// After stage 2: keeps one of rayon's threads spinning until [`Self::release`] or for
    /// [`WARM_FOR`]. Only where another thread can take stage 2's work (more than one).
    pub(crate) fn keep_warm(&mut self) {
        if rayon::current_num_threads() < 2 {
            return;
        }
        // Each job spins on a flag of its own: the last job's flag cleared for this one could
        // catch that job before it saw its release, and hold it through the next stage too.
        let released = Arc::new(AtomicBool::new(false));
        self.released = Arc::clone(&released);
        let warm_for = self.warm_for;
        rayon::spawn(move || {
            let until = Instant::now() + warm_for;
            while !released.load(Ordering::Acquire) && Instant::now() < until {
                std::hint::spin_loop();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` with a [`WarmPool`] that spins for `warm_for` on a pool of two threads, then
    /// waits until every thread of the pool has run a job (so none is still spinning); returns
    /// how long that wait took.
    fn wait_for_both_threads(warm_for: Duration, f: impl FnOnce(&mut WarmPool) + Send) -> Duration {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of two threads");
        pool.install(|| {
            let mut warm = WarmPool {
                warm_for,
                ..WarmPool::default()
            };
            f(&mut warm);
        });
        let t0 = Instant::now();
        pool.broadcast(|_| ());
        t0.elapsed()
    }

    /// Released, a kept-warm thread returns at once: with a 20 s spin, both threads are free
    /// again within 10 s (in practice within microseconds). Unreleased, it returns by itself
    /// after its time, so a program that stops stepping never loses a thread.
    #[test]
    fn a_warm_thread_returns_when_released_and_by_itself() {
        let released = wait_for_both_threads(Duration::from_secs(20), |warm| {
            warm.keep_warm();
            warm.release();
        });
        assert!(released < Duration::from_secs(10), "{released:?}");
        let unreleased = wait_for_both_threads(Duration::from_millis(30), WarmPool::keep_warm);
        assert!(unreleased < Duration::from_secs(10), "{unreleased:?}");
    }

    /// Step after step (keep warm after stage 2, release at the next), every job ends: both
    /// threads are free within 10 s of a 20 s spin.
    #[test]
    fn every_steps_warm_thread_returns_when_released() {
        let waited = wait_for_both_threads(Duration::from_secs(20), |warm| {
            for _ in 0..3 {
                warm.keep_warm();
                warm.release();
            }
        });
        assert!(waited < Duration::from_secs(10), "{waited:?}");
    }
}
