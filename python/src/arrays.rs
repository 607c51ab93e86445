//! NumPy arrays made in Rust: allocated by NumPy in their final shape and filled in place, so
//! an observation costs one array object and no copy.

use numpy::ndarray::{Dimension, IntoDimension};
use numpy::{Element, PyArray, PyArrayMethods};
use pyo3::prelude::*;

/// A new zeroed C-order array of shape `dims`, filled by `fill` through its flat slice.
pub fn filled<'py, T, D, ID>(
    py: Python<'py>,
    dims: ID,
    fill: impl FnOnce(&mut [T]),
) -> PyResult<Bound<'py, PyArray<T, D>>>
where
    T: Element,
    D: Dimension,
    ID: IntoDimension<Dim = D>,
{
    let array = PyArray::<T, D>::zeros(py, dims, false);
    // SAFETY: the array was just created and nothing else refers to it yet.
    fill(unsafe { array.as_slice_mut() }?);
    Ok(array)
}
