/// The shape of a well-known model [the models' published configurations].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPreset {
    pub key: &'static str,
    pub name: &'static str,
    pub parameters: f64,
    /// Parameters active per token (differs from `parameters` for mixture-of-experts models).
    pub active_parameters: f64,
    pub layers: u32,
    pub hidden: u32,
    /// Routed experts and experts per token; 0 for dense models.
    pub experts: u32,
    pub experts_per_token: u32,
    pub sequence_length: u32,
    pub source: &'static str,
}

pub static MODEL_PRESETS: &[ModelPreset] = &[
    ModelPreset {
        key: "llama3-8b",
        name: "Llama 3 8B",
        parameters: 8.0e9,
        active_parameters: 8.0e9,
        layers: 32,
        hidden: 4096,
        experts: 0,
        experts_per_token: 0,
        sequence_length: 8192,
        source: "Llama 3 Herd of Models, arXiv:2407.21783",
    },
    ModelPreset {
        key: "llama3-70b",
        name: "Llama 3 70B",
        parameters: 70.0e9,
        active_parameters: 70.0e9,
        layers: 80,
        hidden: 8192,
        experts: 0,
        experts_per_token: 0,
        sequence_length: 8192,
        source: "Llama 3 Herd of Models, arXiv:2407.21783",
    },
    ModelPreset {
        key: "llama3-405b",
        name: "Llama 3.1 405B",
        parameters: 405.0e9,
        active_parameters: 405.0e9,
        layers: 126,
        hidden: 16384,
        experts: 0,
        experts_per_token: 0,
        sequence_length: 8192,
        source: "Llama 3 Herd of Models, arXiv:2407.21783",
    },
    ModelPreset {
        key: "mixtral-8x7b",
        name: "Mixtral 8x7B",
        parameters: 46.7e9,
        active_parameters: 12.9e9,
        layers: 32,
        hidden: 4096,
        experts: 8,
        experts_per_token: 2,
        sequence_length: 4096,
        source: "Hugging Face config of Mixtral-8x7B (unverified)",
    },
    ModelPreset {
        key: "deepseek-v3",
        name: "DeepSeek-V3 (671B, 37B active)",
        parameters: 671.0e9,
        active_parameters: 37.0e9,
        layers: 61,
        hidden: 7168,
        experts: 256,
        experts_per_token: 8,
        sequence_length: 4096,
        source: "DeepSeek-V3 config_671B.json, arXiv:2412.19437",
    },
];

pub fn model_preset(key: &str) -> Option<&'static ModelPreset> {
    MODEL_PRESETS.iter().find(|m| m.key == key)
}
