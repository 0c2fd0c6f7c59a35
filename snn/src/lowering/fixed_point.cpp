// The fixed-point exponent (see fixed_point.hpp).

#include "lowering/fixed_point.hpp"

namespace volley::snn::detail {

int fixed_point_exponent(double max_abs_weight) {
    if (!(max_abs_weight > 0)) return 30;
    int exp2 = 0;
    std::frexp(max_abs_weight, &exp2);  // max_abs_weight < 2^exp2
    return 30 - exp2;
}

}  // namespace volley::snn::detail
