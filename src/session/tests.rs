//! Session tests: inputs, journal cadence, determinism of a recorded input sequence.
