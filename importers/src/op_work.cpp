// An operator's work from its recorded shapes: tensor bytes (inputs + output), FLOPs of mm/conv/attention, data type.
#include "gpusched/importers/op_work.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched::importers {

namespace {

struct DtypeRow {
    std::string_view type;  ///< the profiler's `Input type`
    int bytes;
    std::string_view dtype;  ///< the workload's dtype, "" none
};

// The element sizes are C++'s (sizeof of the type the profiler names), not hardware numbers.
constexpr DtypeRow kDtypes[] = {
    {"float", 4, "fp32"},          {"double", 8, "fp64"},       {"c10::Half", 2, "fp16"},  {"c10::BFloat16", 2, "bf16"},
    {"long int", 8, ""},           {"long", 8, ""},             {"int", 4, ""},            {"short int", 2, ""},
    {"short", 2, ""},              {"bool", 1, ""},             {"unsigned char", 1, ""},  {"signed char", 1, "int8"},
    {"c10::Float8_e4m3fn", 1, "fp8"}, {"c10::Float8_e5m2", 1, "fp8"}, {"c10::Float8_e4m3fnuz", 1, "fp8"},
    {"c10::Float8_e5m2fnuz", 1, "fp8"}, {"c10::Float8_e8m0fnu", 1, "fp8"},
};

/// Input types that are not tensors: their (empty) dims are no shape.
bool is_non_tensor(const std::string& type) {
    return type.empty() || type == "Scalar" || type == "ScalarList" || type == "GenericList" || type == "None" ||
           type == "Device" || type == "Layout" || type == "ScalarType" || type == "MemoryFormat" || type == "String";
}

double numel(const std::vector<std::int64_t>& dims) {
    double n = 1;
    for (const auto d : dims) n *= static_cast<double>(d);
    return n;
}

/// The tensor inputs of an operator, or why they cannot be used.
struct Tensors {
    std::vector<const OpInput*> list;
    std::string problem;
    bool inconsistent = false;
};

Tensors tensors_of(const CpuOp& op) {
    Tensors t;
    if (!op.has_shapes) return {{}, "no shapes recorded", false};
    for (const OpInput& in : op.inputs) {
        if (in.type == "TensorList") return {{}, "a TensorList input (the profiler records no shapes for it)", false};
        if (is_non_tensor(in.type)) continue;
        if (dtype_bytes(in.type) == 0) {
            if (!in.dims_are_list || in.dims.empty()) continue;  // an argument of another kind
            return {{}, "unknown dtype '" + in.type.substr(0, 40) + "'", true};
        }
        if (!in.dims_are_list) return {{}, "an Input Dims entry that is not a list of integers", true};
        for (const auto d : in.dims)
            if (d <= 0) return {{}, d == 0 ? "zero elements" : "a negative dimension", true};
        t.list.push_back(&in);
    }
    if (t.list.empty()) return {{}, "no tensor inputs", false};
    return t;
}

double bytes_of(const OpInput& in) { return numel(in.dims) * dtype_bytes(in.type); }

/// Integers of a Concrete Inputs text: "[1, 1]" -> {1, 1}, "2" -> {2}; empty when it holds none.
std::vector<std::int64_t> integers_of(const std::string& text) {
    std::vector<std::int64_t> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (std::isdigit(static_cast<unsigned char>(text[i])) || (text[i] == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
            std::size_t end = i;
            const long long v = std::stoll(text.substr(i, 18), &end);
            out.push_back(v);
            i += std::max<std::size_t>(end, 1);
        } else if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '.') {
            return {};  // words or decimals: not a list of integers
        } else {
            ++i;
        }
    }
    return out;
}

std::string short_name(const std::string& name) { return name.rfind("aten::", 0) == 0 ? name.substr(6) : name; }

const OpInput* input(const CpuOp& op, std::size_t i) { return i < op.inputs.size() ? &op.inputs[i] : nullptr; }

}  // namespace

int dtype_bytes(const std::string& type) {
    for (const auto& row : kDtypes)
        if (row.type == type) return row.bytes;
    return 0;
}

std::string workload_dtype(const std::string& type) {
    for (const auto& row : kDtypes)
        if (row.type == type) return std::string(row.dtype);
    return "";
}

std::string op_dtype(const CpuOp& op) {
    for (const OpInput& in : op.inputs)
        if (dtype_bytes(in.type) > 0) return workload_dtype(in.type);
    return "";
}

namespace {

enum class OpFlopsKind { none, matrix, conv, attention };

/// Which of op_flops's formulas an operator (without its `aten::` prefix) takes.
OpFlopsKind op_flops_kind(const std::string& name) {
    if (name == "mm" || name == "addmm" || name == "bmm" || name == "baddbmm") return OpFlopsKind::matrix;
    if (name == "conv1d" || name == "conv2d" || name == "conv3d" || name == "convolution" || name == "_convolution" ||
        name == "cudnn_convolution" || name == "convolution_backward")
        return OpFlopsKind::conv;
    if (name.find("scaled_dot_product") != std::string::npos || name.find("flash_attention") != std::string::npos ||
        name.find("efficient_attention") != std::string::npos)
        return OpFlopsKind::attention;
    return OpFlopsKind::none;
}

}  // namespace

OpEstimate op_bytes(const CpuOp& op, const std::string& family) {
    const Tensors t = tensors_of(op);
    if (t.list.empty()) return {std::nullopt, t.problem, t.inconsistent};
    double inputs = 0;
    const OpInput* largest = t.list.front();
    for (const OpInput* in : t.list) {
        inputs += bytes_of(*in);
        if (bytes_of(*in) > bytes_of(*largest)) largest = in;
    }
    const OpInput& first = *t.list.front();
    const std::string name = short_name(op.name);
    // A memory kernel a matrix product, convolution or attention launches (a layout transform, a split-K
    // reduction): the operator's shapes are its operands, not what this kernel moves.
    if (op_flops_kind(name) != OpFlopsKind::none)
        return {std::nullopt, "a helper kernel of a compute operator (" + name + "): its shapes are not this kernel's bytes", false};
    if (name.empty()) return {inputs + bytes_of(first), "", false};
    if (name == "copy_") return {inputs, "", false};
    if (name == "fill_" || name == "zero_") return {bytes_of(first), "", false};
    if (name.back() == '_') return {inputs + bytes_of(first), "", false};
    if (name.find("backward") != std::string::npos) return {inputs + bytes_of(*largest), "", false};
    if (family == "reduction") {
        double out = numel(first.dims);
        if (name.find("pool") != std::string::npos) {
            const OpInput* stride = input(op, 2);
            for (const auto s : stride ? integers_of(stride->concrete) : std::vector<std::int64_t>{})
                if (s > 0) out /= static_cast<double>(s);
            const double indices = name.find("with_indices") != std::string::npos ? out * dtype_bytes("long") : 0;
            return {inputs + out * dtype_bytes(first.type) + indices, "", false};
        }
        const OpInput* dims = input(op, 1);
        const auto reduced = integers_of(dims ? dims->concrete : "");
        const auto rank = static_cast<std::int64_t>(first.dims.size());
        bool all = reduced.empty();
        for (const auto d : reduced) all = all || d >= rank || d < -rank;
        if (all) out = 1;
        else
            for (const auto d : reduced) out /= static_cast<double>(first.dims[static_cast<std::size_t>(d < 0 ? d + rank : d)]);
        return {inputs + std::max(out, 1.0) * dtype_bytes(first.type), "", false};
    }
    if (family == "elementwise") {
        std::vector<std::int64_t> shape;
        for (const OpInput* in : t.list) {
            const auto& d = in->dims;
            if (d.size() > shape.size()) shape.insert(shape.begin(), d.size() - shape.size(), 1);
            for (std::size_t k = 0; k < d.size(); ++k) {
                std::int64_t& s = shape[shape.size() - d.size() + k];
                if (s != d[k] && s != 1 && d[k] != 1) return {std::nullopt, "input shapes that do not broadcast", true};
                s = std::max(s, d[k]);
            }
        }
        return {inputs + numel(shape) * dtype_bytes(first.type), "", false};
    }
    return {inputs + bytes_of(first), "", false};
}

namespace {

/// The gradients convolution_backward computes: (input, weight) from the first two entries of its
/// output_mask (`Concrete Inputs` of input 10, e.g. "[True, True, False]"); both without a mask.
std::pair<bool, bool> backward_gradients(const CpuOp& op) {
    const OpInput* mask = input(op, 10);
    const std::string m = mask ? mask->concrete : "";
    if (m.find('[') == std::string::npos) return {true, true};
    const auto first = m.find_first_of("TF");
    const auto second = first == std::string::npos ? first : m.find_first_of("TF", first + 1);
    return {first != std::string::npos && m[first] == 'T', second != std::string::npos && m[second] == 'T'};
}

}  // namespace

OpEstimate op_flops(const CpuOp& op) {
    const std::string name = short_name(op.name);
    const auto dims = [&](std::size_t i) -> const std::vector<std::int64_t>* {
        const OpInput* in = input(op, i);
        return in && in->dims_are_list && dtype_bytes(in->type) > 0 ? &in->dims : nullptr;
    };
    const OpFlopsKind kind = op_flops_kind(name);
    const bool mm = name == "mm" || name == "addmm", bmm = name == "bmm" || name == "baddbmm";
    const bool attention = kind == OpFlopsKind::attention;
    if (kind == OpFlopsKind::none) return {};
    const Tensors t = tensors_of(op);
    if (t.list.empty()) return {std::nullopt, t.problem, t.inconsistent};
    const auto bad = [](const std::string& why) { return OpEstimate{std::nullopt, why, true}; };
    if (mm || bmm) {
        const std::size_t a = (name == "addmm" || name == "baddbmm") ? 1 : 0;
        const auto *x = dims(a), *y = dims(a + 1);
        const std::size_t rank = bmm ? 3 : 2;
        if (!x || !y || x->size() != rank || y->size() != rank) return bad(name + " operands that are not " + std::to_string(rank) + "-d");
        const double k = static_cast<double>((*x)[rank - 1]);
        if ((*x)[rank - 1] != (*y)[rank - 2]) return bad(name + " operands whose inner dimensions differ");
        return {2 * (bmm ? static_cast<double>((*x)[0]) : 1) * static_cast<double>((*x)[rank - 2]) * k * static_cast<double>((*y)[rank - 1]), "", false};
    }
    if (attention) {
        const auto *q = dims(0), *k = dims(1);
        if (!q || !k || q->size() != 4 || k->size() != 4) return bad(name + " query/key that are not [B, H, S, D]");
        const double forward = 4 * numel(*q) * static_cast<double>((*k)[2]);
        return {name.find("backward") != std::string::npos ? 2.5 * forward : forward, "", false};
    }
    // Convolutions: 2 x N x K x (output positions) x (C / groups) x (kernel positions); the weight is [K, C/groups, kernel...].
    const bool backward = name == "convolution_backward";
    const auto *x = dims(backward ? 1 : 0), *w = dims(backward ? 2 : 1);
    if (!x || !w || x->size() < 3 || w->size() != x->size()) return bad(name + " input and weight of different ranks");
    const std::size_t spatial = x->size() - 2;
    std::vector<std::int64_t> out;
    if (backward) {
        const auto* g = dims(0);
        if (!g || g->size() != x->size()) return bad(name + " grad_output of another rank than the input");
        out.assign(g->begin() + 2, g->end());
    } else {
        const bool cudnn = name == "cudnn_convolution";
        const auto arg = [&](std::size_t i) { const OpInput* in = input(op, i); return in ? integers_of(in->concrete) : std::vector<std::int64_t>{}; };
        const auto stride = arg(3), padding = arg(cudnn ? 2 : 4), dilation = arg(cudnn ? 4 : 5);
        const auto at = [&](const std::vector<std::int64_t>& v, std::size_t i, std::int64_t fallback) {
            return v.empty() ? fallback : v[std::min(i, v.size() - 1)];
        };
        if ((name == "convolution" || name == "_convolution") && input(op, 6) && input(op, 6)->concrete == "True")
            return {std::nullopt, "a transposed convolution (its FLOPs are not counted from shapes)", false};
        for (std::size_t s = 0; s < spatial; ++s) {
            // In double: the profiler's integers may be anything, and the extent must not overflow.
            const double extent = static_cast<double>((*x)[2 + s]) + 2.0 * static_cast<double>(at(padding, s, 0)) -
                                  static_cast<double>(at(dilation, s, 1)) * static_cast<double>((*w)[2 + s] - 1) - 1;
            const std::int64_t stride_s = at(stride, s, 1);
            if (stride_s <= 0 || extent < 0 || extent > 1e15) return bad(name + " stride, padding or dilation that give no output");
            out.push_back(static_cast<std::int64_t>(extent) / stride_s + 1);
        }
    }
    double flops = 2 * static_cast<double>((*x)[0]) * static_cast<double>((*w)[0]) * numel(out) * numel(std::vector<std::int64_t>(w->begin() + 1, w->end()));
    if (backward) {
        const auto [grad_input, grad_weight] = backward_gradients(op);
        flops *= static_cast<int>(grad_input) + static_cast<int>(grad_weight);
    }
    return {flops, "", false};
}

}  // namespace gpusched::importers
