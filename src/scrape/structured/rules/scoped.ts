// The walk microdata and RDFa-lite share: an element opens an item scope (itemscope / typeof), descendants name
// its properties (itemprop / property), a property element that opens a scope itself is a nested item, and a
// scope without a property inside another is an item of its own. Each element is visited once by the scope it
// belongs to, so the walk is linear; nested scopes recurse at most RULE_LIMITS.maxDepth deep (deeper ones are
// read as text).
import { getAttr, hasAttr, isTag, type ChildNode, type Element, type Page } from '../../extract/dom.js';
import { addProp, newItem, type FactItem, type FactSource, type FactValue } from './facts.js';
import type { ItemBudget } from './jsonld.js';
import { normalizeKey, terms } from './keys.js';
import { RULE_LIMITS } from './limits.js';
import { boundedText } from './text.js';

export interface ScopeSyntax {
  source: FactSource;
  /** Whether the element opens an item scope. */
  opensScope(el: Element): boolean;
  /** The item's types, local names. */
  types(el: Element): string[];
  /** The item's identifier (itemid, resource), if any. */
  id(el: Element): string | undefined;
  /** The property names the element carries, as written (local names). */
  propNames(el: Element): string[];
  /** The value of a property element that opens no scope. */
  value(el: Element): string;
  /** Ids of elements whose properties also belong to the scope (microdata's itemref). */
  refs?(el: Element): string[];
  /**
   * RDFa: the element opens a scope and its property belongs to that scope itself (`about` + `typeof` +
   * `property`: the Person's own name), not to the enclosing one.
   */
  ownProperty?(el: Element): boolean;
  /** RDFa: a property element with no value of its own (a hanging `rel`) whose object is this nested scope. */
  hangingScope?(el: Element): Element | undefined;
}

class ScopeReader {
  readonly items: FactItem[] = [];
  private readonly pending: Element[] = [];
  private idIndex: Map<string, Element> | undefined;

  constructor(
    private readonly page: Page,
    private readonly syntax: ScopeSyntax,
    private readonly budget: ItemBudget,
  ) {}

  read(): FactItem[] {
    this.collectTopScopes(this.page.html);
    // An index, not shift(): a page may hold 100,000 scopes, and the budget stops reading long before.
    for (let i = 0; i < this.pending.length && this.budget.left > 0; i++) {
      this.items.push(this.readItem(this.pending[i] as Element, 0));
    }
    return this.items;
  }

  /** Scopes outside any other scope, in document order; their insides are the scopes' business. */
  private collectTopScopes(root: Element): void {
    const stack: ChildNode[] = [root];
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (!isTag(n)) continue;
      if (this.syntax.opensScope(n)) {
        this.pending.push(n);
        continue;
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as ChildNode);
    }
  }

  private readItem(scope: Element, depth: number): FactItem {
    this.budget.left--;
    const item = newItem(this.syntax.source, this.syntax.types(scope), this.syntax.id(scope));
    if (this.syntax.ownProperty?.(scope)) {
      const value = this.syntax.value(scope);
      for (const name of this.syntax.propNames(scope)) if (value) addProp(item, name, normalizeKey(name), value);
    }
    const stack: ChildNode[] = [];
    const pushChildren = (el: Element): void => {
      for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i] as ChildNode);
    };
    for (const ref of (this.syntax.refs?.(scope) ?? []).slice(0, 20).reverse()) {
      const target = this.byId(ref);
      // A reference to the scope itself or to an ancestor would read the scope twice.
      if (target && !isAncestorOrSelf(target, scope)) stack.push(target);
    }
    pushChildren(scope);
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (!isTag(n)) continue;
      const own = this.syntax.ownProperty?.(n) ?? false;
      const names = own ? [] : this.syntax.propNames(n);
      const opens = this.syntax.opensScope(n);
      const hanging = names.length && !opens ? this.syntax.hangingScope?.(n) : undefined;
      if (hanging) {
        // The nested scope is this property's value; it is read once, here.
        if (depth + 1 < RULE_LIMITS.maxDepth && this.budget.left > 0) {
          const nested = this.readItem(hanging, depth + 1);
          for (const name of names) addProp(item, name, normalizeKey(name), nested);
        }
        continue;
      }
      if (names.length) {
        let value: FactValue | undefined;
        if (opens) {
          if (depth + 1 < RULE_LIMITS.maxDepth && this.budget.left > 0) {
            const nested = this.readItem(n, depth + 1);
            // A typed link or image with nothing inside (`<img property="image" typeof="Image" src>`): its URL is
            // its url (a text, when it states no link).
            const own = nested.props.size ? '' : this.syntax.value(n);
            if (/^https?:\/\//.test(own)) addProp(nested, 'url', 'url', own);
            value = nested.props.size || !own ? nested : own;
          } else value = boundedText(n) || undefined;
        } else value = this.syntax.value(n) || undefined;
        if (value !== undefined) {
          for (const name of names) {
            const key = normalizeKey(name);
            const count = item.props.get(key)?.length ?? 0;
            if (key && count < RULE_LIMITS.maxValuesPerProp) addProp(item, name, key, value);
          }
        }
      } else if (opens) {
        // A scope without a property inside this one: an item of its own, read after this one.
        this.pending.push(n);
      }
      if (!opens) pushChildren(n);
    }
    return item;
  }

  private byId(id: string): Element | undefined {
    if (!this.idIndex) {
      this.idIndex = new Map();
      const index = this.idIndex;
      // Iterative: this runs before the depth cap of the extraction (clean.ts) has flattened a hostile tree.
      const stack: ChildNode[] = [this.page.html];
      for (let n = stack.pop(); n; n = stack.pop()) {
        if (!isTag(n)) continue;
        const v = getAttr(n, 'id');
        if (v && !index.has(v)) index.set(v, n);
        for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as ChildNode);
      }
    }
    return this.idIndex.get(id);
  }
}

function isAncestorOrSelf(el: Element, of: Element): boolean {
  for (let n: Element | null = of; n; n = n.parent && isTag(n.parent) ? n.parent : null) if (n === el) return true;
  return false;
}

export function readScopes(page: Page, syntax: ScopeSyntax, budget: ItemBudget): FactItem[] {
  return new ScopeReader(page, syntax, budget).read();
}

/** Space-separated local names of an attribute. */
export function attrTerms(el: Element, name: string): string[] {
  return hasAttr(el, name) ? terms(getAttr(el, name)) : [];
}
