-- Local data for `supabase db reset`: one address already on the list.
insert into public.waiting_list (email) values ('taken@example.com');
