//! Who may use the instructor console: one instructor password, stored only as an Argon2id
//! hash (salted, deliberately slow) in the records; logged-in browsers hold a random session
//! token in an `HttpOnly`, `SameSite=Strict` cookie; every command also carries the session's
//! CSRF token in a header a cross-site page cannot set, so a forged request changes nothing.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::classroom::network::{random_bytes, random_hex};

/// The console's session cookie.
pub const COOKIE: &str = "treadsim_session";

/// The header every command must carry with the session's CSRF token.
pub const CSRF_HEADER: &str = "X-Treadsim-Csrf";

/// How long a login lasts without use.
pub const SESSION_IDLE: Duration = Duration::from_secs(8 * 3600);

/// Shortest instructor password, characters.
pub const MIN_PASSWORD: usize = 8;

/// Why a password cannot be hashed or set.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Too short.
    #[error("the instructor password must have at least {MIN_PASSWORD} characters")]
    TooShort,
    /// No randomness or the hasher failed.
    #[error("cannot hash the password: {0}")]
    Hash(String),
}

/// The Argon2id hash of `password` as a PHC string (algorithm, parameters, salt and hash).
pub fn hash_password(password: &str) -> Result<String, AuthError> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(AuthError::TooShort);
    }
    let salt_bytes = random_bytes::<16>().map_err(|e| AuthError::Hash(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt_bytes).map_err(|e| AuthError::Hash(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AuthError::Hash(e.to_string()))
}

/// Whether `password` matches the stored PHC string `hash` (a malformed hash matches nothing).
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// One logged-in browser.
#[derive(Debug, Clone)]
struct Login {
    csrf: String,
    last_used: Instant,
}

/// The logged-in browsers, by session token.
#[derive(Debug, Default)]
pub struct Sessions {
    logins: Mutex<HashMap<String, Login>>,
}

impl Sessions {
    /// A new login: its session token and CSRF token.
    pub fn open(&self) -> Result<(String, String), AuthError> {
        let token = random_hex::<32>().map_err(|e| AuthError::Hash(e.to_string()))?;
        let csrf = random_hex::<16>().map_err(|e| AuthError::Hash(e.to_string()))?;
        let mut logins = self.lock();
        logins.retain(|_, l| l.last_used.elapsed() < SESSION_IDLE);
        logins.insert(
            token.clone(),
            Login {
                csrf: csrf.clone(),
                last_used: Instant::now(),
            },
        );
        Ok((token, csrf))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Login>> {
        self.logins
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The CSRF token of the login whose session token is `token`, if it is current (and
    /// marks it used).
    pub fn check(&self, token: &str) -> Option<String> {
        let mut logins = self.lock();
        let login = logins.get_mut(token)?;
        if login.last_used.elapsed() >= SESSION_IDLE {
            logins.remove(token);
            return None;
        }
        login.last_used = Instant::now();
        Some(login.csrf.clone())
    }

    /// Ends a login.
    pub fn close(&self, token: &str) {
        self.lock().remove(token);
    }
}

/// The session token in a `Cookie` header's value, if any.
pub fn session_cookie(header: &str) -> Option<&str> {
    header
        .split(';')
        .filter_map(|part| part.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value)
}

/// The `Set-Cookie` value that logs a browser in (`secure`: only over TLS).
pub fn login_cookie(token: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/{secure}")
}

/// The `Set-Cookie` value that logs a browser out.
pub fn logout_cookie() -> String {
    format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
}

/// Compares two tokens in time that does not depend on where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The value of `field` in an `application/x-www-form-urlencoded` body.
pub fn form_field(body: &str, field: &str) -> Option<String> {
    body.split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| *name == field)
        .map(|(_, value)| percent_decode(value))
}

/// Decodes `+` and `%XX` escapes (bad escapes are kept as they are).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(hi), Some(lo)) => {
                        out.push((hi * 16 + lo) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_hash_only() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains("correct horse"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horsf", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
        assert!(matches!(hash_password("short"), Err(AuthError::TooShort)));
        // Salted: the same password hashes differently each time.
        assert_ne!(hash, hash_password("correct horse").unwrap());
    }

    #[test]
    fn sessions_open_check_and_close() {
        let sessions = Sessions::default();
        let (token, csrf) = sessions.open().unwrap();
        assert_eq!(sessions.check(&token).as_deref(), Some(csrf.as_str()));
        assert!(sessions.check("forged").is_none());
        sessions.close(&token);
        assert!(sessions.check(&token).is_none());
    }

    #[test]
    fn cookies_forms_and_tokens_are_read() {
        let cookie = login_cookie("abc", false);
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
        assert_eq!(
            session_cookie("a=1; treadsim_session=abc; b=2"),
            Some("abc")
        );
        assert_eq!(session_cookie("a=1"), None);
        assert_eq!(
            form_field("x=1&password=a%20b+c%21%zz", "password").as_deref(),
            Some("a b c!%zz")
        );
        assert!(
            same_token("abcd", "abcd") && !same_token("abcd", "abce") && !same_token("a", "ab")
        );
    }
}
