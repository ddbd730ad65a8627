//! OMG CDR as ROS 2 puts it on the wire (XCDR1, little-endian): a 4-byte encapsulation header
//! `00 01 00 00` (CDR_LE, no options), then the message, each primitive aligned to its own size
//! (at most 8) counted from the end of the header; strings as a `u32` length that counts the
//! terminating NUL, the bytes and the NUL; sequences as a `u32` count and the elements; fixed
//! arrays as the elements alone. Sources: the OMG CDR specification (DDS-XTypes 1.3, §7.4.3),
//! and rmw_zenoh's `rmw_zenoh_cpp/src/detail/cdr.cpp` (its `DDS_CDR` mode, fastcdr with the
//! encapsulation written first).

/// The encapsulation header of little-endian plain CDR.
pub const CDR_LE: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// Largest string or sequence a reader accepts, elements: a count beyond it is refused before
/// anything is allocated (a malformed or hostile message cannot make us allocate gigabytes).
pub const MAX_COUNT: u32 = 16 * 1024 * 1024;

/// Why a CDR message could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CdrError {
    /// The message ended before the field.
    #[error("the message ends at byte {at}, inside {field}")]
    Short {
        /// Where the body ended, bytes.
        at: usize,
        /// What was being read.
        field: &'static str,
    },
    /// Not little-endian plain CDR.
    #[error("encapsulation {0:02x?} is not CDR_LE (00 01 00 00)")]
    Encapsulation([u8; 2]),
    /// A count or length over [`MAX_COUNT`].
    #[error("{field}: a count of {count} is more than {MAX_COUNT}")]
    Count {
        /// The field.
        field: &'static str,
        /// The count read.
        count: u32,
    },
    /// A string that is not UTF-8 or lacks its NUL.
    #[error("{0}: not a NUL-terminated UTF-8 string")]
    Text(&'static str),
}

/// Writes a CDR message: the header first, then the fields in order.
#[derive(Debug, Clone, Default)]
pub struct CdrWriter {
    bytes: Vec<u8>,
}

impl CdrWriter {
    /// An empty message with its encapsulation header.
    pub fn new() -> Self {
        let mut bytes = Vec::with_capacity(256);
        bytes.extend_from_slice(&CDR_LE);
        Self { bytes }
    }

    /// Pads with zeros to a multiple of `n` bytes from the body's start.
    fn align(&mut self, n: usize) {
        let body = self.bytes.len() - CDR_LE.len();
        let pad = (n - body % n) % n;
        self.bytes.resize(self.bytes.len() + pad, 0);
    }

    /// A `uint8` (or `byte`).
    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    /// A `bool` (one byte, 0 or 1).
    pub fn bool(&mut self, v: bool) {
        self.bytes.push(u8::from(v));
    }

    /// An `int32`.
    pub fn i32(&mut self, v: i32) {
        self.align(4);
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// A `uint32`.
    pub fn u32(&mut self, v: u32) {
        self.align(4);
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// A `float64`.
    pub fn f64(&mut self, v: f64) {
        self.align(8);
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// A `string`: length with the NUL, the bytes, the NUL.
    pub fn string(&mut self, s: &str) {
        self.u32(u32::try_from(s.len() + 1).unwrap_or(u32::MAX));
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
    }

    /// A sequence's element count.
    pub fn count(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }

    /// A `uint8[]` sequence: count and bytes.
    pub fn bytes(&mut self, data: &[u8]) {
        self.count(data.len());
        self.bytes.extend_from_slice(data);
    }

    /// The message.
    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reads a CDR message written as [`CdrWriter`] writes it.
#[derive(Debug, Clone)]
pub struct CdrReader<'a> {
    body: &'a [u8],
    at: usize,
}

impl<'a> CdrReader<'a> {
    /// A reader of `message`, its header checked.
    pub fn new(message: &'a [u8]) -> Result<Self, CdrError> {
        if message.len() < CDR_LE.len() {
            return Err(CdrError::Short {
                at: 0,
                field: "the encapsulation header",
            });
        }
        if message[..2] != CDR_LE[..2] {
            return Err(CdrError::Encapsulation([message[0], message[1]]));
        }
        Ok(Self {
            body: &message[CDR_LE.len()..],
            at: 0,
        })
    }

    fn take(&mut self, n: usize, align: usize, field: &'static str) -> Result<&'a [u8], CdrError> {
        let start = self.at.div_ceil(align) * align;
        let end = start.checked_add(n).filter(|e| *e <= self.body.len());
        let Some(end) = end else {
            return Err(CdrError::Short {
                at: self.body.len(),
                field,
            });
        };
        self.at = end;
        Ok(&self.body[start..end])
    }

    /// A `uint8`.
    pub fn u8(&mut self, field: &'static str) -> Result<u8, CdrError> {
        Ok(self.take(1, 1, field)?[0])
    }

    /// A `bool` (any non-zero byte is true).
    pub fn bool(&mut self, field: &'static str) -> Result<bool, CdrError> {
        Ok(self.u8(field)? != 0)
    }

    /// An `int32`.
    pub fn i32(&mut self, field: &'static str) -> Result<i32, CdrError> {
        let b = self.take(4, 4, field)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A `uint32`.
    pub fn u32(&mut self, field: &'static str) -> Result<u32, CdrError> {
        let b = self.take(4, 4, field)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A `float64`.
    pub fn f64(&mut self, field: &'static str) -> Result<f64, CdrError> {
        let b = self.take(8, 8, field)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(f64::from_le_bytes(a))
    }

    /// A sequence's count, at most [`MAX_COUNT`].
    pub fn count(&mut self, field: &'static str) -> Result<usize, CdrError> {
        let n = self.u32(field)?;
        if n > MAX_COUNT {
            return Err(CdrError::Count { field, count: n });
        }
        Ok(n as usize)
    }

    /// A `string`.
    pub fn string(&mut self, field: &'static str) -> Result<String, CdrError> {
        let n = self.count(field)?;
        let b = self.take(n, 1, field)?;
        match b.split_last() {
            Some((0, text)) => std::str::from_utf8(text)
                .map(str::to_owned)
                .map_err(|_| CdrError::Text(field)),
            _ => Err(CdrError::Text(field)),
        }
    }

    /// A `uint8[]` sequence.
    pub fn bytes(&mut self, field: &'static str) -> Result<&'a [u8], CdrError> {
        let n = self.count(field)?;
        self.take(n, 1, field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_aligned_from_the_body_and_read_back() {
        let mut w = CdrWriter::new();
        w.u8(7);
        w.f64(1.5);
        w.string("odom");
        w.i32(-3);
        w.bytes(&[1, 2, 3]);
        w.u32(9);
        let m = w.finish();
        // Header, u8, 7 pad bytes, f64 at body offset 8.
        assert_eq!(&m[..5], &[0, 1, 0, 0, 7]);
        assert_eq!(&m[12..20], &1.5f64.to_le_bytes());
        // The string: length 5 (with the NUL) at body offset 16.
        assert_eq!(&m[20..24], &5u32.to_le_bytes());
        assert_eq!(&m[24..29], b"odom\0");
        let mut r = CdrReader::new(&m).unwrap();
        assert_eq!(r.u8("a").unwrap(), 7);
        assert_eq!(r.f64("b").unwrap(), 1.5);
        assert_eq!(r.string("c").unwrap(), "odom");
        assert_eq!(r.i32("d").unwrap(), -3);
        assert_eq!(r.bytes("e").unwrap(), &[1, 2, 3]);
        assert_eq!(r.u32("f").unwrap(), 9);
        assert!(matches!(r.u8("g"), Err(CdrError::Short { .. })));
    }

    #[test]
    fn malformed_messages_are_refused_with_the_field() {
        assert!(matches!(
            CdrReader::new(&[0, 0, 0, 0]),
            Err(CdrError::Encapsulation(_))
        ));
        assert!(CdrReader::new(&[0, 1]).is_err());
        // A count of four billion is refused before anything is allocated.
        let mut huge = CDR_LE.to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        let e = CdrReader::new(&huge)
            .unwrap()
            .string("frame_id")
            .unwrap_err();
        assert!(e.to_string().contains("frame_id"), "{e}");
        // A string without its NUL.
        let mut w = CdrWriter::new();
        w.u32(2);
        let mut m = w.finish();
        m.extend_from_slice(b"ab");
        assert_eq!(
            CdrReader::new(&m).unwrap().string("name"),
            Err(CdrError::Text("name"))
        );
    }
}
