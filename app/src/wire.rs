//! How values travel between the server and the browser, chosen for what the bundle must carry
//! to read them: the browser parses no JSON with serde. Its derived decoders for the spec and the
//! answers cost the bundle more than 40 KB gzip (BENCHMARKS.md), so the spec the page carries is
//! borsh, and JSON (what the server functions answer, the dashboard the page carries) is read
//! with the browser's own `JSON.parse` and a reader per type ([`answer::FromAnswer`]).

/// This build's identity: a hash of the sources of what the server and the browser send each
/// other (`build.rs`). The planner's page names the build that wrote it; a bundle of another
/// build does not read its start, which it would misread, and asks for a reload instead.
pub const BUILD: &str = env!("FABRIC_PLANNER_BUILD");

/// The name of the planner page's `<meta>` that carries [`BUILD`].
pub const BUILD_META: &str = "fabric-planner-build";

/// Whether a page that names `page` as its build is this build's.
pub fn same_build(page: Option<&str>) -> bool {
    page == Some(BUILD)
}

/// In the browser: whether the page was written by this build; where it was not, the page
/// stays as the server wrote it, with a prompt to reload it, rather than run on a start this
/// bundle would misread.
#[cfg(feature = "hydrate")]
pub fn page_is_this_builds() -> bool {
    let document = leptos::prelude::document();
    let page = document
        .query_selector(&format!("meta[name=\"{BUILD_META}\"]"))
        .ok()
        .flatten()
        .and_then(|meta| meta.get_attribute("content"));
    if same_build(page.as_deref()) {
        return true;
    }
    if let (Ok(prompt), Some(body)) = (document.create_element("p"), document.body()) {
        prompt.set_id("reload-prompt");
        let _ = prompt.set_attribute("role", "alert");
        prompt.set_text_content(Some(
            "Fabric Planner was updated since this page was written, so it cannot be edited here: ",
        ));
        if let Ok(reload) = document.create_element("a") {
            let _ = reload.set_attribute("href", "");
            reload.set_text_content(Some("reload the page"));
            let _ = prompt.append_with_node_1(&reload);
            let _ = prompt.append_with_str_1(".");
        }
        let _ = body.prepend_with_node_1(&prompt);
    }
    false
}

/// What the planner's page carries for its hydration, the design it starts on: borsh, read
/// field after field in the order the types declare them (an enum's variant is its index), with
/// no field names or defaults to decode. Only the build that wrote it reads it, so the page and
/// the bundle must come from the same build: the server has browsers revalidate the bundle on
/// every load (`server/src/routes.rs`).
pub struct Borsh;

impl<T: borsh::BorshSerialize> codee::Encoder<T> for Borsh {
    type Error = std::io::Error;
    type Encoded = Vec<u8>;

    fn encode(value: &T) -> Result<Vec<u8>, std::io::Error> {
        borsh::to_vec(value)
    }
}

impl<T: borsh::BorshDeserialize> codee::Decoder<T> for Borsh {
    type Error = std::io::Error;
    type Encoded = [u8];

    fn decode(bytes: &[u8]) -> Result<T, std::io::Error> {
        borsh::from_slice(bytes)
    }
}

/// A value the page carries as serde's JSON, read back as a server function's answer is: in the
/// browser with `JSON.parse` and the value's [`answer::FromAnswer`]. Leptos writes each `<` of
/// what a page carries as `\u003c`, so that no text can end its script, and the JSON reader
/// turns that back into `<`.
pub struct AnswerInJson;

impl<T: serde::Serialize> codee::Encoder<T> for AnswerInJson {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, serde_json::Error> {
        serde_json::to_string(value)
    }
}

impl<T: answer::FromAnswer> codee::Decoder<T> for AnswerInJson {
    type Error = ();
    type Encoded = str;

    fn decode(json: &str) -> Result<T, ()> {
        #[cfg(feature = "hydrate")]
        let value = js_sys::JSON::parse(json).ok();
        #[cfg(not(feature = "hydrate"))]
        let value = serde_json::from_str::<serde_json::Value>(json).ok();
        T::from_answer(&value.ok_or(())?).ok_or(())
    }
}

/// The server functions' answers: JSON, as any client reads it. The server writes it with
/// serde_json; the browser reads it with `JSON.parse` and [`answer::FromAnswer`].
pub struct JsonReply;

impl leptos::server_fn::ContentType for JsonReply {
    const CONTENT_TYPE: &'static str = "application/json";
}

impl leptos::server_fn::FormatType for JsonReply {
    const FORMAT_TYPE: leptos::server_fn::Format = leptos::server_fn::Format::Text;
}

impl<T: serde::Serialize> leptos::server_fn::Encodes<T> for JsonReply {
    type Error = serde_json::Error;

    fn encode(value: &T) -> Result<leptos::server_fn::Bytes, serde_json::Error> {
        serde_json::to_vec(value).map(Into::into)
    }
}

/// On the host, by the same readers as in the browser.
#[cfg(not(feature = "hydrate"))]
impl<T: answer::FromAnswer> leptos::server_fn::Decodes<T> for JsonReply {
    type Error = &'static str;

    fn decode(bytes: leptos::server_fn::Bytes) -> Result<T, &'static str> {
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|_| "the answer is not JSON")?;
        T::from_answer(&value).ok_or("the answer is not what the server function returns")
    }
}

#[cfg(feature = "hydrate")]
impl<T: answer::FromAnswer> leptos::server_fn::Decodes<T> for JsonReply {
    type Error = &'static str;

    fn decode(bytes: leptos::server_fn::Bytes) -> Result<T, &'static str> {
        let text = std::str::from_utf8(&bytes).map_err(|_| "the answer is not UTF-8")?;
        let value = js_sys::JSON::parse(text).map_err(|_| "the answer is not JSON")?;
        T::from_answer(&value).ok_or("the answer is not what the server function returns")
    }
}

/// Reading the server functions' answers: in the browser from what `JSON.parse` gives, on the
/// host from serde_json's value, by the same reader, so that a test holds each reader to what
/// serde writes. Each answer's type reads itself (`impl FromAnswer`, beside the type), the mirror
/// of its serde form.
pub mod answer {
    /// A parsed JSON value, as a reader of answers needs it.
    pub trait Json: Sized {
        /// The member `name` of an object.
        fn member(&self, name: &str) -> Option<Self>;
        fn number(&self) -> Option<f64>;
        fn string(&self) -> Option<String>;
        fn is_null(&self) -> bool;
        /// The items of an array.
        fn items(&self) -> Option<Vec<Self>>;

        fn boolean(&self) -> Option<bool>;

        /// The member `name`, when it is a string.
        fn text(&self, name: &str) -> Option<String> {
            self.member(name)?.string()
        }

        /// The member `name`, read as a `T`.
        fn get<T: FromAnswer>(&self, name: &str) -> Option<T> {
            T::from_answer(&self.member(name)?)
        }
    }

    /// A value read from a server function's JSON answer.
    pub trait FromAnswer: Sized {
        fn from_answer(answer: &impl Json) -> Option<Self>;
    }

    impl FromAnswer for String {
        fn from_answer(answer: &impl Json) -> Option<String> {
            answer.string()
        }
    }

    impl FromAnswer for bool {
        fn from_answer(answer: &impl Json) -> Option<bool> {
            answer.boolean()
        }
    }

    impl FromAnswer for u8 {
        fn from_answer(answer: &impl Json) -> Option<u8> {
            let n = answer.number()?;
            (n.fract() == 0.0 && (0.0..=255.0).contains(&n)).then_some(n as u8)
        }
    }

    /// serde writes `None` as null.
    impl<T: FromAnswer> FromAnswer for Option<T> {
        fn from_answer(answer: &impl Json) -> Option<Option<T>> {
            if answer.is_null() {
                return Some(None);
            }
            T::from_answer(answer).map(Some)
        }
    }

    impl<T: FromAnswer> FromAnswer for Vec<T> {
        fn from_answer(answer: &impl Json) -> Option<Vec<T>> {
            // A loop rather than collecting into `Option<Vec<T>>`: the adapters that collecting
            // instantiates for every item type weigh on the bundle.
            let items = answer.items()?;
            let mut read = Vec::with_capacity(items.len());
            for item in &items {
                read.push(T::from_answer(item)?);
            }
            Some(read)
        }
    }

    /// serde writes a tuple as an array.
    impl<A: FromAnswer, B: FromAnswer, C: FromAnswer> FromAnswer for (A, B, C) {
        fn from_answer(answer: &impl Json) -> Option<(A, B, C)> {
            match answer.items()?.as_slice() {
                [a, b, c] => Some((A::from_answer(a)?, B::from_answer(b)?, C::from_answer(c)?)),
                _ => None,
            }
        }
    }

    #[cfg(feature = "hydrate")]
    impl Json for leptos::wasm_bindgen::JsValue {
        fn member(&self, name: &str) -> Option<Self> {
            js_sys::Reflect::get(self, &Self::from_str(name)).ok()
        }

        fn number(&self) -> Option<f64> {
            self.as_f64()
        }

        fn string(&self) -> Option<String> {
            self.as_string()
        }

        fn is_null(&self) -> bool {
            Self::is_null(self)
        }

        fn boolean(&self) -> Option<bool> {
            self.as_bool()
        }

        fn items(&self) -> Option<Vec<Self>> {
            use leptos::wasm_bindgen::JsCast;
            Some(
                self.clone()
                    .dyn_into::<js_sys::Array>()
                    .ok()?
                    .iter()
                    .collect(),
            )
        }
    }

    #[cfg(not(feature = "hydrate"))]
    impl Json for serde_json::Value {
        fn member(&self, name: &str) -> Option<Self> {
            // As in the browser, a missing member reads as `undefined`, which is no value.
            self.get(name).cloned()
        }

        fn number(&self) -> Option<f64> {
            self.as_f64()
        }

        fn string(&self) -> Option<String> {
            self.as_str().map(str::to_string)
        }

        fn is_null(&self) -> bool {
            Self::is_null(self)
        }

        fn boolean(&self) -> Option<bool> {
            self.as_bool()
        }

        fn items(&self) -> Option<Vec<Self>> {
            self.as_array().cloned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build is named by sixteen hexadecimal digits, and a page is this build's only when it
    /// names exactly this one.
    #[test]
    fn a_page_is_read_only_by_the_build_that_wrote_it() {
        assert_eq!(BUILD.len(), 16);
        assert!(BUILD.bytes().all(|b| b.is_ascii_hexdigit()), "{BUILD}");
        assert!(same_build(Some(BUILD)));
        assert!(!same_build(Some(&BUILD[1..])));
        assert!(!same_build(None), "a page that names no build");
    }
}
