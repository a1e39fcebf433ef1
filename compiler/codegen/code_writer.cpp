#include "compiler/codegen/code_writer.hpp"

#include <algorithm>
#include <array>

namespace pz::codegen {

// note [text in generated code]: names that cannot stand alone.
bool reservedIdentifier(std::string_view name) {
    // Keywords and alternative tokens (C++20), then names the generated code
    // and the runtime headers use unqualified inside the puzzle's namespace,
    // then lower-case macros of the C and POSIX headers (and GNU-mode
    // predefined macros). Upper-case-only names are all treated as macros.
    static constexpr std::array<std::string_view, 154> kNames = {
        "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
        "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval",
        "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
        "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern",
        "false", "final", "float", "for", "friend", "goto", "if", "import", "inline", "int", "long", "module",
        "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq",
        "override", "private", "protected", "public", "register", "reinterpret_cast", "requires", "return",
        "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
        "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned",
        "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
        // used unqualified by generated code / runtime
        "std", "pz", "pzgen", "posix", "main", "size_t", "ptrdiff_t", "nullptr_t", "max_align_t", "int8_t",
        "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t",
        "uintptr_t", "intmax_t", "uintmax_t", "State", "Traits", "MoveTerms", "Board", "Key", "Space",
        "Hasher", "AllLevels", "Library",
        // lower-case macros
        "errno", "assert", "stdin", "stdout", "stderr", "offsetof", "setjmp", "va_arg", "va_start", "va_end",
        "va_copy", "alloca", "major", "minor", "makedev", "linux", "unix", "i386", "isnan", "isinf",
        "signbit", "isfinite", "fpclassify", "htonl", "htons", "ntohl", "ntohs", "sigsetjmp"};
    if (name.empty()) return false;
    if (name[0] == '_' || name.find("__") != std::string_view::npos) return true;
    if (std::none_of(name.begin(), name.end(), [](char c) { return c >= 'a' && c <= 'z'; })) return true;
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

}  // namespace pz::codegen
