// The power-limited clock of tensor-core work: how fast the SMs run while some of them keep their tensor cores busy.
#pragma once

#include <optional>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::hw {

/// The power rule's exponent: an SM's dynamic power grows as f V^2 with its voltage V rising in step with the
/// clock f over the boost range, so as f^3 (docs/gpu-spec.md, "Power-limited tensor clock"). A rule, not data.
inline constexpr double kTensorPowerExponent = 3;

/// Whether `gpu` states the power limit of tensor work: execution.tensor_clock_mhz and
/// execution.tensor_power_sms both.
bool has_tensor_power(const GpuSpec& gpu);

/// f_t: execution.tensor_clock_mhz, at most clock_mhz (which a what-if may set lower); nullopt without the keys.
std::optional<double> full_tensor_clock_mhz(const GpuSpec& gpu);

/// The clock while tensor cores are busy on SMs whose activities (each SM's fraction of its peak tensor
/// issue per cycle, 0..1) add up to `busy_sms`:
///
///     f = f_t min(1, (P / busy_sms)^(1/3))        f_t: execution.tensor_clock_mhz, P: execution.tensor_power_sms
///
/// (P SMs at full activity run at f_t within the board's power; more busy SMs lower the clock until their power
/// is that of P; f_t is full_tensor_clock_mhz). nullopt when the spec lacks either key; f_t when busy_sms <= 0.
std::optional<double> power_limited_tensor_clock_mhz(const GpuSpec& gpu, double busy_sms);

/// A tensor kernel's clock and activity as its measured duration explains them.
struct TensorLoad {
    double clock_mhz = 0;  ///< the clock it ran at
    double activity = 0;   ///< each of its SMs' fraction of the peak tensor rate per cycle at that clock (<= 1)
};

/// The load of a kernel that reached `utilisation` u = F / (R N d f_t) on `sms` = N SMs (its FLOPs over the
/// dtype's peak per SM per cycle R at the tensor clock f_t, its SMs and its duration d): with a = u f_t / f in
/// the rule above, f = f_t min(1, (P / (N u))^(1/2)) (the exponent less one). nullopt without the keys or
/// when u or N is not above 0.
std::optional<TensorLoad> tensor_load_from_utilisation(const GpuSpec& gpu, double sms, double utilisation);

}  // namespace gpusched::hw
