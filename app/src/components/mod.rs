//! Pieces shared by pages.

mod figure;
mod number_field;
mod training_results;

pub use figure::FigureRow;
pub use number_field::NumberField;
pub use training_results::TrainingResults;
