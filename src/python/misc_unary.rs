//! `Tensor.frac`, `logit` and `nan_to_num` (and their in-place forms), over `ops::misc_unary`.
use super::ops::{inplace, out, R};
use super::tensor::PyTensor;
use crate::ops;
use pyo3::prelude::*;

#[pymethods]
impl PyTensor {
    /// The fractional part `x - trunc(x)` (FracBackward0).
    ///
    /// >>> torch.tensor([-2.5, 0.5, 1.0]).frac()
    /// tensor([-0.5000,  0.5000,  0.0000])
    fn frac<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::frac(&self.t))
    }
    /// `frac` in place.
    ///
    /// >>> x = torch.tensor([1.25])
    /// >>> x.frac_() is x, x
    /// (True, tensor([0.2500]))
    fn frac_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        inplace(slf, &[], ops::frac)
    }
    /// `log(x / (1 - x))`, `x` clamped to `[eps, 1 - eps]` first when `eps` is given
    /// (LogitBackward0).
    ///
    /// >>> torch.tensor([0.25, 0.5, 1.0]).logit()
    /// tensor([-1.0986,  0.0000,     inf])
    #[pyo3(signature = (eps = None))]
    fn logit<'py>(&self, py: Python<'py>, eps: Option<f64>) -> R<'py> {
        out(py, ops::logit(&self.t, eps))
    }
    /// `logit` in place.
    ///
    /// >>> x = torch.tensor([0.25])
    /// >>> x.logit_() is x, x
    /// (True, tensor([-1.0986]))
    #[pyo3(signature = (eps = None))]
    fn logit_<'py>(slf: &Bound<'py, Self>, eps: Option<f64>) -> PyResult<Bound<'py, Self>> {
        inplace(slf, &[], |t| ops::logit(t, eps))
    }
    /// NaN, inf and -inf replaced by `nan` (0), `posinf` and `neginf` (the dtype's largest
    /// and lowest finite values) (NanToNumBackward0).
    ///
    /// >>> torch.tensor([float("nan"), float("inf"), -1.5]).nan_to_num(posinf=9.0)
    /// tensor([ 0.0000,  9.0000, -1.5000])
    #[pyo3(signature = (nan = 0.0, posinf = None, neginf = None))]
    fn nan_to_num<'py>(
        &self,
        py: Python<'py>,
        nan: Option<f64>,
        posinf: Option<f64>,
        neginf: Option<f64>,
    ) -> R<'py> {
        out(py, ops::nan_to_num(&self.t, nan, posinf, neginf))
    }
    /// `nan_to_num` in place.
    ///
    /// >>> x = torch.tensor([float("nan"), 2.0])
    /// >>> x.nan_to_num_() is x, x
    /// (True, tensor([0., 2.]))
    #[pyo3(signature = (nan = 0.0, posinf = None, neginf = None))]
    fn nan_to_num_<'py>(
        slf: &Bound<'py, Self>,
        nan: Option<f64>,
        posinf: Option<f64>,
        neginf: Option<f64>,
    ) -> PyResult<Bound<'py, Self>> {
        inplace(slf, &[], |t| ops::nan_to_num(t, nan, posinf, neginf))
    }
}

#[pymethods]
impl PyTensor {
    /// log |Γ(x)| elementwise (LgammaBackward0).
    ///
    /// >>> torch.tensor([0.5, 1.0, 10.0]).lgamma()
    /// tensor([ 0.5724,  0.0000, 12.8018])
    fn lgamma<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::lgamma(&self.t))
    }
    /// `lgamma` in place.
    ///
    /// >>> x = torch.tensor([3.0])
    /// >>> x.lgamma_() is x, x
    /// (True, tensor([0.6931]))
    fn lgamma_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        inplace(slf, &[], ops::lgamma)
    }
    /// The digamma function ψ(x) = d/dx log Γ(x) (DigammaBackward0).
    ///
    /// >>> torch.tensor([1.0, 0.5]).digamma()
    /// tensor([-0.5772, -1.9635])
    fn digamma<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::digamma(&self.t))
    }
    /// `digamma` in place.
    ///
    /// >>> x = torch.tensor([1.0])
    /// >>> x.digamma_() is x, x
    /// (True, tensor([-0.5772]))
    fn digamma_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        inplace(slf, &[], ops::digamma)
    }
    /// The n-th derivative of digamma (PolygammaBackward0).
    ///
    /// >>> torch.tensor([1.0, 2.0]).polygamma(1)
    /// tensor([1.6449, 0.6449])
    fn polygamma<'py>(&self, py: Python<'py>, n: i64) -> R<'py> {
        out(py, ops::polygamma(n, &self.t))
    }
    /// `polygamma` in place.
    ///
    /// >>> x = torch.tensor([1.0])
    /// >>> x.polygamma_(1) is x, x
    /// (True, tensor([1.6449]))
    fn polygamma_<'py>(slf: &Bound<'py, Self>, n: i64) -> PyResult<Bound<'py, Self>> {
        inplace(slf, &[], |t| ops::polygamma(n, t))
    }
}
