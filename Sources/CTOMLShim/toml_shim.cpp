#include "toml_shim.h"

#include <deque>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

// As tomlplusplus.pc says: the implementation is Debian's libtomlplusplus.so, not compiled in here.
#define TOML_HEADER_ONLY 0
#define TOML_SHARED_LIB 1
#include <toml++/toml.h>

namespace {

// Everything one parse allocates; the nodes point into `strings`, which never moves its elements.
struct Storage {
    std::vector<vt_toml_node> nodes;
    std::deque<std::string> strings;
    std::string error;

    const char *keep(std::string text, size_t *length) {
        strings.push_back(std::move(text));
        *length = strings.back().size();
        return strings.back().data();
    }
};

template <typename Value> std::string formatted(const Value &value) {
    std::ostringstream stream;
    stream << value;
    return stream.str();
}

void append(Storage &storage, const toml::node &node, const toml::key *key) {
    vt_toml_node out{};
    if (key) {
        out.key = storage.keep(std::string(key->str()), &out.key_length);
        out.key_line = key->source().begin.line;
        out.key_column = key->source().begin.column;
    }
    const auto &begin = node.source().begin;
    out.line = begin.line;
    out.column = begin.column;
    size_t index = storage.nodes.size();
    storage.nodes.push_back(out);
    // Children are appended after their parent; the parent is written back by index, as the
    // vector may move while they are added.
    size_t children = 0;
    vt_toml_node filled = out;
    switch (node.type()) {
    case toml::node_type::table:
        filled.kind = VT_TOML_TABLE;
        for (auto &&[name, child] : *node.as_table()) {
            append(storage, child, &name);
            children++;
        }
        break;
    case toml::node_type::array:
        filled.kind = VT_TOML_ARRAY;
        for (auto &&child : *node.as_array()) {
            append(storage, child, nullptr);
            children++;
        }
        break;
    case toml::node_type::string:
        filled.kind = VT_TOML_STRING;
        filled.text = storage.keep(node.as_string()->get(), &filled.text_length);
        break;
    case toml::node_type::integer:
        filled.kind = VT_TOML_INTEGER;
        filled.integer = node.as_integer()->get();
        break;
    case toml::node_type::floating_point:
        filled.kind = VT_TOML_FLOAT;
        filled.number = node.as_floating_point()->get();
        break;
    case toml::node_type::boolean:
        filled.kind = VT_TOML_BOOLEAN;
        filled.boolean = node.as_boolean()->get();
        break;
    case toml::node_type::date:
        filled.kind = VT_TOML_DATE;
        filled.text = storage.keep(formatted(node.as_date()->get()), &filled.text_length);
        break;
    case toml::node_type::time:
        filled.kind = VT_TOML_TIME;
        filled.text = storage.keep(formatted(node.as_time()->get()), &filled.text_length);
        break;
    default:
        filled.kind = VT_TOML_DATE_TIME;
        filled.text = storage.keep(formatted(node.as_date_time()->get()), &filled.text_length);
        break;
    }
    filled.children = children;
    storage.nodes[index] = filled;
}

} // namespace

extern "C" void vt_toml_parse(const char *text, size_t length, vt_toml_document *document) {
    *document = vt_toml_document{};
    auto *storage = new Storage();
    document->storage = storage;
    try {
        toml::table root = toml::parse(std::string_view(text, length));
        append(*storage, root, nullptr);
        document->nodes = storage->nodes.data();
        document->count = storage->nodes.size();
    } catch (const toml::parse_error &error) {
        storage->error = std::string(error.description());
        document->error = storage->error.c_str();
        document->error_line = error.source().begin.line;
        document->error_column = error.source().begin.column;
    } catch (const std::exception &error) {
        // Out of memory, mostly: reported like a parse error rather than ending the process.
        storage->error = error.what();
        document->error = storage->error.c_str();
    }
}

extern "C" void vt_toml_free(vt_toml_document *document) {
    delete static_cast<Storage *>(document->storage);
    *document = vt_toml_document{};
}
