// fmt's out-of-line code, compiled into shapevm instead of loaded from libfmt.so (start-up:
// cmake/static_runtime.cmake). Debian's libfmt-dev ships headers and the shared library only; its
// headers hold the whole implementation (format-inl.h), which is what the shared library is built
// from. Built only against fmt 9, whose format.h declares the templates instantiated below as
// defined elsewhere.
#include <fmt/format-inl.h>

namespace fmt {
inline namespace v9 {
namespace detail {

// Floating-point formatting (Dragonbox), for both widths format.h dispatches to.
template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

// Locale access, declared `extern template` in format.h.
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> char;
template auto decimal_point_impl(locale_ref) -> wchar_t;

// The formatting loop every fmt::format and fmt::print call ends in.
template void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>,
                         locale_ref);

}  // namespace detail
}  // namespace v9
}  // namespace fmt
