import { useState } from 'react';
import { Form, useNavigate, useSearchParams } from 'react-router';
import { SEARCH_TERM_MAX } from '#common/constants.ts';
import { searchTarget } from '#common/search.ts';
import { SearchIcon } from '#web/common/icons.tsx';

/** The header's search: a non-empty trimmed term goes to /products?search=term; an empty one is ignored. */
export function SearchBox() {
  const [params] = useSearchParams();
  const [term, setTerm] = useState(params.get('search') ?? '');
  const navigate = useNavigate();
  return (
    <Form
      action="/products"
      method="get"
      role="search"
      className="relative w-full"
      onSubmit={(event) => {
        event.preventDefault();
        const target = searchTarget(term);
        if (target) navigate(target);
      }}
    >
      <label htmlFor="site-search" className="sr-only">
        Search products
      </label>
      <input
        id="site-search"
        name="search"
        type="search"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        placeholder="Search fountains, lamps, oils…"
        maxLength={SEARCH_TERM_MAX}
        autoComplete="off"
        className="h-10 w-full rounded-full border border-sage-200 bg-white pr-11 pl-4 text-sm placeholder:text-stone-500 focus:border-sage-500 focus:ring-2 focus:ring-sage-200 focus:outline-none"
      />
      <button
        type="submit"
        aria-label="Search"
        className="absolute top-1 right-1 flex h-8 w-8 items-center justify-center rounded-full text-sage-700 hover:bg-sage-100"
      >
        <SearchIcon />
      </button>
    </Form>
  );
}
