//! The instructor's authority over its seats. The class key lets a program into the class
//! network, and every seat holds it; so a seat must also know that a command (or the
//! acknowledgement that lets it drop a result) comes from the instructor and not from another
//! member. The instructor signs them with its Ed25519 key (`instructor.key` beside the records,
//! owner-only, never copied); the class key file carries the matching public key, and a seat
//! obeys only what verifies against it, issued within [`FRESH_FOR`] and after the last command it
//! took (a recorded command cannot be played again).

use std::path::Path;

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde::Serialize;

use super::network::{random_bytes, write_private, NetworkError};

/// How old (or how far in the future, clocks differing) a signed command may be, ms.
pub const FRESH_FOR: u64 = 30_000;

/// The instructor's signing key.
pub struct InstructorKey {
    signing: SigningKey,
}

/// The instructor's public key, as seats know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructorPublic {
    verifying: VerifyingKey,
}

fn from_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let text = text.trim();
    if text.len() != 2 * N || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl InstructorKey {
    /// A new random key.
    pub fn generate() -> std::io::Result<Self> {
        Ok(Self {
            signing: SigningKey::from_bytes(&random_bytes::<32>()?),
        })
    }

    /// The key of a known 32-byte seed (tests; a real key comes from [`Self::read_or_make`]).
    pub fn from_seed(seed: [u8; 32]) -> Self {
        Self {
            signing: SigningKey::from_bytes(&seed),
        }
    }

    /// The key in `path` (its 32-byte seed as hex), or a new one written there owner-only.
    pub fn read_or_make(path: &Path) -> Result<Self, NetworkError> {
        let err = |detail: String| NetworkError::Key {
            path: path.to_path_buf(),
            detail,
        };
        if path.exists() {
            let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
            let seed = from_hex::<32>(&text).ok_or_else(|| err("not a 64-hex-digit key".into()))?;
            return Ok(Self {
                signing: SigningKey::from_bytes(&seed),
            });
        }
        let key = Self::generate().map_err(|e| err(e.to_string()))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
        }
        write_private(path, &format!("{}\n", to_hex(&key.signing.to_bytes()))).map_err(err)?;
        Ok(key)
    }

    /// Its public key.
    pub fn public(&self) -> InstructorPublic {
        InstructorPublic {
            verifying: self.signing.verifying_key(),
        }
    }

    /// The signature (hex) of `message` with its `signature` field empty.
    pub fn sign<T: Signed>(&self, message: &T) -> String {
        to_hex(&self.signing.sign(&message.unsigned_bytes()).to_bytes())
    }
}

impl InstructorPublic {
    /// Reads the hex form.
    pub fn from_hex(text: &str) -> Option<Self> {
        let bytes = from_hex::<32>(text)?;
        VerifyingKey::from_bytes(&bytes)
            .ok()
            .map(|verifying| Self { verifying })
    }

    /// The hex form (64 digits).
    pub fn to_hex(&self) -> String {
        to_hex(self.verifying.as_bytes())
    }

    /// Whether `message`'s signature is the instructor's.
    pub fn verifies<T: Signed>(&self, message: &T) -> bool {
        from_hex::<64>(message.signature()).is_some_and(|sig| {
            self.verifying
                .verify(&message.unsigned_bytes(), &Signature::from_bytes(&sig))
                .is_ok()
        })
    }
}

/// A message the instructor signs: the bytes signed are its JSON with `signature` empty.
pub trait Signed: Serialize + Clone {
    /// The signature (hex).
    fn signature(&self) -> &str;
    /// The same message with `signature` set to `value`.
    fn with_signature(&self, value: String) -> Self;
    /// The bytes signed.
    fn unsigned_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(&self.with_signature(String::new())).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::protocol::{Command, CommandRequest, PROTOCOL_VERSION};

    fn request() -> CommandRequest {
        CommandRequest {
            protocol: PROTOCOL_VERSION,
            id: 3,
            seat: "s1".into(),
            issued_unix_ms: 1_000,
            command: Command::Link {
                change: serde_json::json!({"change": "dropout", "duration": 2.5}),
            },
            signature: String::new(),
        }
    }

    #[test]
    fn a_signed_command_verifies_and_any_change_or_other_key_does_not() {
        let key = InstructorKey::generate().unwrap();
        let other = InstructorKey::generate().unwrap();
        let mut signed = request();
        signed.signature = key.sign(&signed);
        assert!(key.public().verifies(&signed));
        assert!(!other.public().verifies(&signed));
        let mut moved = signed.clone();
        moved.seat = "s2".into();
        assert!(!key.public().verifies(&moved));
        let mut junk = signed.clone();
        junk.signature = "zz".into();
        assert!(!key.public().verifies(&junk));
        // Through JSON and back (as it travels) it still verifies.
        let back: CommandRequest =
            serde_json::from_slice(&serde_json::to_vec(&signed).unwrap()).unwrap();
        assert!(key.public().verifies(&back));
        assert_eq!(
            InstructorPublic::from_hex(&key.public().to_hex()),
            Some(key.public())
        );
    }

    #[test]
    fn a_key_file_is_made_private_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("instructor.key");
        let a = InstructorKey::read_or_make(&path).unwrap();
        let b = InstructorKey::read_or_make(&path).unwrap();
        assert_eq!(a.public(), b.public());
        std::fs::write(&path, "nonsense").unwrap();
        assert!(InstructorKey::read_or_make(&path).is_err());
    }
}
