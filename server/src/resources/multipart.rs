//! Reading a multipart form (pasted text or an uploaded file) field by field, for the forms
//! that take a tool's output: baselines and the as-built check.

use axum::extract::Multipart;

/// Every field of `multipart`, by name, as bytes; a form that cannot be read gets the reason.
pub async fn fields(mut multipart: Multipart) -> Result<Vec<(String, Vec<u8>)>, String> {
    let unreadable =
        |e: axum::extract::multipart::MultipartError| format!("the form could not be read: {e}");
    let mut fields = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(unreadable)? {
        let name = field.name().unwrap_or_default().to_string();
        let bytes = field.bytes().await.map_err(unreadable)?;
        fields.push((name, bytes.to_vec()));
    }
    Ok(fields)
}

/// A field's bytes as text, invalid UTF-8 replaced.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
