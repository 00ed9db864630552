//! The address users reach the planner at (`--public-url`): what the server checks a state-
//! changing request's origin against, and writes into the links of what it hands out.

/// The scheme and authority users reach the planner at, without a trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl(String);

impl PublicUrl {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_https(&self) -> bool {
        self.0.starts_with("https://")
    }

    /// A public URL from a setting, as `--public-url` reads it: a scheme and a host (and
    /// port), no path.
    pub fn parse(setting: &str) -> Result<PublicUrl, String> {
        let url = setting.trim().trim_end_matches('/');
        let authority = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))
            .ok_or("must start with https:// or http://")?;
        let allowed =
            |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
        if authority.is_empty() || !authority.chars().all(allowed) {
            return Err("must be a scheme and a host (and port), such as https://planner.example.com, with no path".into());
        }
        Ok(PublicUrl(url.to_ascii_lowercase()))
    }
}
