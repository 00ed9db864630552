//! The OpenAPI 3.1 document of the JSON API, generated from the same endpoint list that builds
//! the router (so a route cannot go undocumented) and from the JSON Schemas the engine derives
//! for its own spec, report and search types.

use axum::http::Method;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::{json, Map, Value};

/// The schema of one body, made by the document's generator.
pub type SchemaOf = fn(&mut SchemaGenerator) -> Schema;

/// The schema of `T`, as a reference into the document's components where `T` is named.
pub fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// What one operation takes and answers, for the document.
pub struct Operation {
    pub method: Method,
    pub path: &'static str,
    pub id: &'static str,
    pub summary: &'static str,
    /// Longer prose, or empty.
    pub description: &'static str,
    pub request: Option<SchemaOf>,
    /// The status and body of success.
    pub answer: (u16, &'static str, SchemaOf),
    /// The statuses of refusal, each with the error body.
    pub refusals: &'static [u16],
    /// Needs the design's edit key.
    pub edit_key: bool,
}

const INFO: &str = "Evaluate GPU cluster fabric designs and store them as designs with immutable \
revisions. A design is created with a secret edit key, returned once; saving a revision needs it \
(Authorization: Bearer KEY, or X-Edit-Key: KEY). Anyone with a design's id can read it. Request \
bodies are at most 256 KiB. Writes and computations are rate-limited per client (429 with \
Retry-After).";

/// The path parameters the API uses, each described once.
const PARAMETERS: [(&str, &str, &str); 2] = [
    (
        "id",
        "The design's id, as returned when it was created.",
        "string",
    ),
    ("n", "The revision number, from 1.", "integer"),
];

/// The document of `operations`, with every schema they name under `components/schemas`.
pub fn document<'a>(operations: impl IntoIterator<Item = &'a Operation>) -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "/components/schemas".into();
    let mut generator = settings.into_generator();
    let mut paths = Map::new();
    for operation in operations {
        let entry = paths
            .entry(operation.path)
            .or_insert_with(|| Value::Object(Map::new()));
        entry[operation.method.as_str().to_ascii_lowercase()] =
            described(operation, &mut generator);
    }
    let error = schema::<app::error::AppError>(&mut generator);
    json!({
        "openapi": "3.1.0",
        "info": { "title": "Fabric Planner API", "version": "1", "description": INFO },
        "paths": paths,
        "components": {
            "securitySchemes": {
                "editKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The edit key returned when the design was created."
                },
                "editKeyHeader": { "type": "apiKey", "in": "header", "name": "X-Edit-Key" }
            },
            "responses": {
                "Error": {
                    "description": "What was wrong: `invalid` (422) lists every field error with \
                        its path; the others carry a message.",
                    "content": { "application/json": { "schema": error } }
                }
            },
            "schemas": generator.take_definitions(true),
        }
    })
}

fn described(operation: &Operation, generator: &mut SchemaGenerator) -> Value {
    let (status, description, answer) = operation.answer;
    let mut responses = Map::new();
    responses.insert(
        status.to_string(),
        json!({
            "description": description,
            "content": { "application/json": { "schema": answer(generator) } }
        }),
    );
    for refusal in operation.refusals {
        responses.insert(
            refusal.to_string(),
            json!({ "$ref": "#/components/responses/Error" }),
        );
    }
    let mut described = json!({
        "operationId": operation.id,
        "summary": operation.summary,
        "responses": responses,
    });
    if !operation.description.is_empty() {
        described["description"] = operation.description.into();
    }
    let parameters: Vec<Value> = PARAMETERS
        .iter()
        .filter(|(name, _, _)| operation.path.contains(&format!("{{{name}}}")))
        .map(|(name, description, kind)| {
            json!({
                "name": name,
                "in": "path",
                "required": true,
                "description": description,
                "schema": { "type": kind },
            })
        })
        .collect();
    if !parameters.is_empty() {
        described["parameters"] = parameters.into();
    }
    if let Some(request) = operation.request {
        described["requestBody"] = json!({
            "required": true,
            "content": { "application/json": { "schema": request(generator) } }
        });
    }
    if operation.edit_key {
        described["security"] = json!([{ "editKey": [] }, { "editKeyHeader": [] }]);
    }
    described
}
