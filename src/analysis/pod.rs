//! Serde for arrays of plain numbers (`Vec<u8>`, `Vec<u16>`, `Vec<u32>`, `Vec<u64>`) as one
//! byte string in the machine's byte order, for `#[serde(with = ...)]`: an encoder that
//! takes byte strings (postcard) writes such an array in one copy and reads it back in one,
//! instead of a number at a time. The byte order is the encoder's caller's to record
//! ([`super::persist::ENDIAN`]).

use std::marker::PhantomData;

use serde::{de, Deserializer, Serializer};

/// Writes `v` as its bytes.
pub fn serialize<T: bytemuck::Pod, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(bytemuck::cast_slice(v))
}

/// Reads an array written by [`serialize`]; a byte string whose length is not a multiple of
/// the number's size is an error.
pub fn deserialize<'de, T: bytemuck::Pod, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    d.deserialize_bytes(Numbers(PhantomData))
}

struct Numbers<T>(PhantomData<T>);

impl<T: bytemuck::Pod> Numbers<T> {
    fn collect<E: de::Error>(&self, bytes: &[u8]) -> Result<Vec<T>, E> {
        if !bytes.len().is_multiple_of(std::mem::size_of::<T>().max(1)) {
            return Err(E::invalid_length(bytes.len(), self));
        }
        Ok(bytemuck::pod_collect_to_vec(bytes))
    }
}

impl<'de, T: bytemuck::Pod> de::Visitor<'de> for Numbers<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "an array of {}-byte numbers as bytes",
            std::mem::size_of::<T>()
        )
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Vec<T>, E> {
        self.collect(bytes)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, bytes: &'de [u8]) -> Result<Vec<T>, E> {
        self.collect(bytes)
    }

    fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<Vec<T>, E> {
        self.collect(&bytes)
    }
}

#[cfg(test)]
mod tests {
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Arrays {
        #[serde(with = "super")]
        a: Vec<u32>,
        #[serde(with = "super")]
        b: Vec<u16>,
        #[serde(with = "super")]
        c: Vec<u64>,
        d: u8,
    }

    #[test]
    fn arrays_round_trip_and_odd_lengths_are_refused() {
        let v = Arrays {
            a: vec![0, 1, u32::MAX, 77],
            b: vec![5, u16::MAX],
            c: vec![u64::MAX, 3],
            d: 9,
        };
        let bytes = postcard::to_stdvec(&v).unwrap();
        assert_eq!(postcard::from_bytes::<Arrays>(&bytes).unwrap(), v);
        // `a` as 15 bytes: one short of four numbers.
        let mut odd = postcard::to_stdvec(&(
            serde_bytes_like(&[0u8; 15]),
            serde_bytes_like(&[]),
            serde_bytes_like(&[]),
            0u8,
        ))
        .unwrap();
        assert!(postcard::from_bytes::<Arrays>(&odd).is_err());
        // A length beyond the input is an error, not an allocation.
        odd[0] = 0xff;
        odd.insert(1, 0xff);
        assert!(postcard::from_bytes::<Arrays>(&odd).is_err());
    }

    /// A byte string as postcard writes one.
    fn serde_bytes_like(b: &[u8]) -> Bytes<'_> {
        Bytes(b)
    }

    struct Bytes<'a>(&'a [u8]);

    impl serde::Serialize for Bytes<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
}
