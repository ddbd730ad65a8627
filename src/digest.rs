//! The crate's one fingerprint of `f64` values: FNV-1a over each value's 64 bits taken as one
//! word, so equal fingerprints mean bit-identical values (traffic state in replay checks, the
//! trajectory of `treadsim bench --digest`).

/// A running FNV-1a fingerprint of `f64` values, in the order they are added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BitDigest(u64);

impl Default for BitDigest {
    /// The empty fingerprint (FNV-1a's offset basis).
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl BitDigest {
    /// Adds the bits of `x`.
    pub(crate) fn add(&mut self, x: f64) {
        self.0 = (self.0 ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3);
    }

    /// The fingerprint so far.
    pub(crate) fn value(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One step of FNV-1a by hand, and the fingerprint tells order, sign of zero and the last
    /// bit apart.
    #[test]
    fn fingerprint_follows_fnv1a_and_tells_bits_apart() {
        let mut d = BitDigest::default();
        d.add(1.0);
        assert_eq!(
            d.value(),
            (0xcbf2_9ce4_8422_2325u64 ^ 0x3ff0_0000_0000_0000).wrapping_mul(0x0100_0000_01b3)
        );
        let of = |xs: &[f64]| {
            let mut d = BitDigest::default();
            xs.iter().for_each(|&x| d.add(x));
            d.value()
        };
        assert_ne!(of(&[1.0, 2.0]), of(&[2.0, 1.0]));
        assert_ne!(of(&[0.0]), of(&[-0.0]));
        assert_ne!(of(&[1.0]), of(&[f64::from_bits(1.0f64.to_bits() + 1)]));
    }
}
