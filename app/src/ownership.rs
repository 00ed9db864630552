//! Ownership without accounts (server only): a browser holds the edit key of each design it
//! created in a cookie `fpk_<design id>`. The cookie is HttpOnly (scripts never see the key)
//! and SameSite=Lax (another site cannot post a save with it). Served over HTTPS it is also
//! `Secure` and named `__Host-fpk_<id>`, so that only this host, over TLS, can set or read it.

use crate::store::{DesignId, EditKey};
use cookie::{time::Duration, Cookie, SameSite};
use http::header::{HeaderMap, COOKIE};

const PREFIX: &str = "fpk_";
/// The browser accepts a `__Host-` cookie only from a secure origin, for the whole host.
const HOST_PREFIX: &str = "__Host-fpk_";

static SECURE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Marks key cookies `Secure` with the `__Host-` prefix from now on: the server calls it once at
/// start when it is reached over HTTPS.
pub fn use_secure_cookies() {
    let _ = SECURE.set(true);
}

fn secure() -> bool {
    SECURE.get().copied().unwrap_or(false)
}

/// Browsers keep a cookie for at most 400 days (RFC 6265bis); saving again renews it.
const LIFETIME_DAYS: i64 = 400;

/// Every (design, key) pair the request's cookies carry, in the order sent. Malformed cookies
/// are ignored: they cannot be keys of ours. Served over HTTPS only `__Host-` cookies count: a
/// plain `fpk_` cookie could have been set by a sibling subdomain or over plain HTTP (cookie
/// tossing), which a `__Host-` cookie cannot.
pub fn held_keys(headers: &HeaderMap) -> Vec<(DesignId, EditKey)> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|text| Cookie::split_parse(text.to_string()))
        .filter_map(Result::ok)
        .filter_map(|c| {
            let name = c.name();
            let id = match name.strip_prefix(HOST_PREFIX) {
                Some(id) => id,
                None if secure() => return None,
                None => name.strip_prefix(PREFIX)?,
            };
            let id = DesignId::parse(id)?;
            Some((id, EditKey::parse(c.value())?))
        })
        .collect()
}

/// The key the request holds for design `id`, if any.
pub fn key_for(headers: &HeaderMap, id: &DesignId) -> Option<EditKey> {
    held_keys(headers)
        .into_iter()
        .find_map(|(held, key)| (&held == id).then_some(key))
}

/// The Set-Cookie value that gives a browser the key of design `id`.
pub fn key_cookie(id: &DesignId, key: &EditKey) -> String {
    let prefix = if secure() { HOST_PREFIX } else { PREFIX };
    Cookie::build((format!("{prefix}{}", id.as_str()), key.as_str().to_string()))
        .http_only(true)
        .secure(secure())
        .same_site(SameSite::Lax)
        .path("/")
        .max_age(Duration::days(LIFETIME_DAYS))
        .build()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    #[test]
    fn a_key_cookie_is_read_back_and_other_cookies_are_ignored() {
        let (id, key) = (DesignId::random(), EditKey::random());
        let set = key_cookie(&id, &key);
        assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"));
        let pair = set.split(';').next().unwrap();
        let mut headers = HeaderMap::new();
        let sent = format!(
            "theme=dark; {pair}; fpk_nothex=1; fpk_{}=short",
            id.as_str()
        );
        headers.insert(COOKIE, HeaderValue::from_str(&sent).unwrap());
        assert_eq!(held_keys(&headers), vec![(id.clone(), key.clone())]);
        assert_eq!(key_for(&headers, &id), Some(key));
        assert_eq!(key_for(&headers, &DesignId::random()), None);
    }
}
