//! Money, power and length as the pages print them.

use engine::{Kilowatts, Metres, Usd, Watts};

/// US dollars, whole, grouped in thousands.
pub fn usd(amount: Usd) -> String {
    let whole = amount.dollars().round();
    let grouped = engine::thousands(whole.abs());
    format!("{}${grouped}", if whole < 0.0 { "-" } else { "" })
}

/// Watts below a kilowatt, kilowatts with one decimal from there.
pub fn watts(power: Watts) -> String {
    if power.watts() >= 1000.0 {
        kw(power.to_kilowatts())
    } else {
        format!("{:.0} W", power.watts())
    }
}

pub fn kw(power: Kilowatts) -> String {
    format!("{} kW", engine::grouped(power.kilowatts(), 1))
}

pub fn metres(length: Metres) -> String {
    format!("{:.1} m", length.metres())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_are_grouped_in_thousands_and_power_is_in_kilowatts_from_one() {
        assert_eq!(usd(Usd::new(946_040.4)), "$946,040");
        assert_eq!(usd(Usd::new(7391.0)), "$7,391");
        assert_eq!(usd(Usd::new(-1500.0)), "-$1,500");
        assert_eq!(watts(Watts::new(28_800.0)), "28.8 kW");
        assert_eq!(watts(Watts::new(23_877_400.0)), "23,877.4 kW");
        assert_eq!(watts(Watts::new(225.0)), "225 W");
        assert_eq!(kw(Kilowatts::new(10.2)), "10.2 kW");
        assert_eq!(metres(Metres::new(37.04)), "37.0 m");
    }
}
