//! How values travel between the server and the browser, chosen for what the bundle must carry
//! to read them: the browser parses no JSON with serde. Its derived decoders for the spec and the
//! answers cost the bundle more than 40 KB gzip (BENCHMARKS.md), so the spec the page carries is
//! borsh and what the server functions answer is read with the browser's own `JSON.parse`.

/// What the planner's page carries for its hydration, the design it starts on: borsh,
/// read field after field in the order the types declare them, with no field names, defaults or
/// tags to decode. The server and the browser are built from the same types.
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

/// The server functions' encoding: JSON both ways, as any client sends and reads it. The server
/// reads and writes it with serde_json; the browser writes it with serde_json too and reads the
/// answers with `JSON.parse` and [`answer::FromAnswer`].
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

#[cfg(not(feature = "hydrate"))]
impl<T: serde::de::DeserializeOwned> leptos::server_fn::Decodes<T> for JsonReply {
    type Error = serde_json::Error;

    fn decode(bytes: leptos::server_fn::Bytes) -> Result<T, serde_json::Error> {
        serde_json::from_slice(&bytes)
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

/// The browser's readers of the server functions' answers, each the mirror of the type's serde
/// form (the `wire` tests hold the error kinds to it).
#[cfg(feature = "hydrate")]
pub mod answer {
    use crate::design::SavedDesign;
    use crate::error::AppError;
    use engine::FieldError;
    use leptos::wasm_bindgen::{JsCast, JsValue};

    /// A value read from a server function's JSON answer, parsed by the browser.
    pub trait FromAnswer: Sized {
        fn from_answer(answer: &JsValue) -> Option<Self>;
    }

    fn member(object: &JsValue, name: &str) -> Option<JsValue> {
        js_sys::Reflect::get(object, &JsValue::from_str(name)).ok()
    }

    fn text(object: &JsValue, name: &str) -> Option<String> {
        member(object, name)?.as_string()
    }

    impl FromAnswer for String {
        fn from_answer(answer: &JsValue) -> Option<String> {
            answer.as_string()
        }
    }

    impl FromAnswer for SavedDesign {
        fn from_answer(answer: &JsValue) -> Option<SavedDesign> {
            let revision = member(answer, "revision")?.as_f64()?;
            Some(SavedDesign {
                id: text(answer, "id")?,
                revision: u32::try_from(revision as i64).ok()?,
                edit_key: text(answer, "edit_key"),
            })
        }
    }

    impl FromAnswer for AppError {
        fn from_answer(answer: &JsValue) -> Option<AppError> {
            let kind = text(answer, "error")?;
            let details = member(answer, "details")?;
            if kind == AppError::INVALID {
                let errors = details.dyn_into::<js_sys::Array>().ok()?;
                let errors = errors
                    .iter()
                    .map(|e| Some(FieldError::new(text(&e, "path")?, text(&e, "reason")?)));
                return errors.collect::<Option<_>>().map(AppError::Invalid);
            }
            AppError::with_message(&kind, details.as_string()?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Borsh;
    use crate::editor::Stored;
    use crate::pages::PlannerStart;
    use codee::{Decoder, Encoder};
    use engine::DesignSpec;

    fn carried<T>(value: &T) -> T
    where
        Borsh: Encoder<T, Encoded = Vec<u8>> + Decoder<T, Encoded = [u8]>,
        <Borsh as Encoder<T>>::Error: std::fmt::Debug,
        <Borsh as Decoder<T>>::Error: std::fmt::Debug,
    {
        Borsh::decode(&Borsh::encode(value).unwrap()).unwrap()
    }

    fn examples() -> Vec<DesignSpec> {
        let mut specs: Vec<DesignSpec> = engine::examples::ALL
            .iter()
            .map(|(_, text)| DesignSpec::from_json(text).unwrap())
            .collect();
        specs.extend([
            crate::templates::first_design(),
            crate::templates::blank_design(),
        ]);
        specs
    }

    /// The planner opens in the browser on exactly the start the server chose: every example,
    /// every workload kind, fabric, floor and calibration field comes through.
    #[test]
    fn the_planners_start_arrives_as_the_server_sent_it() {
        let specs = examples();
        assert!(specs.len() >= 8, "{}", specs.len());
        for spec in specs {
            let new = PlannerStart::new_design(spec.clone());
            assert_eq!(carried(&new), new);
            let editing = PlannerStart {
                spec,
                editing: Some(Stored {
                    id: "k3j5v9q2".into(),
                    revision: 7,
                    title: "Pod «B», rev 7".into(),
                }),
            };
            assert_eq!(carried(&editing), editing);
        }
    }

    /// A start that is cut short is refused, not read as something else.
    #[test]
    fn a_truncated_start_is_refused() {
        let start = PlannerStart::new_design(crate::templates::first_design());
        let bytes = Borsh::encode(&start).unwrap();
        let cut: Result<PlannerStart, _> = Borsh::decode(&bytes[..bytes.len() - 1]);
        assert!(cut.is_err());
    }
}
